import type { CrawlRequest, CrawlScope } from '@trawl/client';
import type { CommandSpec, OptionSpec } from '../command-spec.ts';
import { TERMINAL_STATUSES } from '../crawl/progress.ts';
import { lineSink } from '../output.ts';
import { integer, jsonFile } from '../parse.ts';

/** The contract's crawl scopes (the type check fails when it gains or loses one). */
const SCOPES = { same_hostname: true, same_domain: true, same_origin: true, all: true } satisfies Record<CrawlScope, true>;

const OUT: OptionSpec = { flags: '--out <file>', description: 'write the items as JSON Lines to this file (default: stdout)' };

// Following a crawl loads the progress bar (cli-progress): only when a crawl is followed, not for --help.
const follow = async () => (await import('../crawl/follow.ts')).followCrawl;

/** `trawl crawl URL… [--max-pages N] [--max-depth N] [--scope S] [--extraction FILE] [--out FILE]` */
export const crawlCommand: CommandSpec = {
  name: 'crawl',
  description: 'Start a crawl and follow it to its end: progress on stderr, every item as one JSON line',
  args: [{ syntax: '<urls...>', description: '1 to 100 seed URLs' }],
  options: [
    { flags: '--max-pages <n>', description: 'page cap, seeds included (API default 100)', parse: integer(1, 10_000) },
    { flags: '--max-depth <n>', description: 'link hops from the seeds (API default 2)', parse: integer(0, 10) },
    { flags: '--scope <scope>', description: 'which links are followed (API default same_hostname)', choices: Object.keys(SCOPES) },
    { flags: '--extraction <file>', description: 'JSON file with the crawl’s extraction object ({"type": "json_css", …})' },
    OUT,
  ],
  async run([urls], o, ctx) {
    const body: CrawlRequest = {
      urls: urls as string[],
      ...(o.maxPages !== undefined ? { max_pages: o.maxPages as number } : {}),
      ...(o.maxDepth !== undefined ? { max_depth: o.maxDepth as number } : {}),
      ...(o.scope !== undefined ? { scope: o.scope as CrawlScope } : {}),
      // The API checks the extraction object itself and names what is wrong.
      ...(o.extraction !== undefined ? { extraction: jsonFile(String(o.extraction)) as CrawlRequest['extraction'] } : {}),
    };
    const client = ctx.client();
    const out = lineSink(o.out as string | undefined, ctx.stdout);
    const followCrawl = await follow();
    const { crawl, run } = await client.createCrawl(body);
    ctx.stderr.write(`${crawl.id} started (run ${run.id}); Ctrl-C stops following it\n`);
    return followCrawl(ctx, client, crawl, out);
  },
};

/** `trawl resume CRAWL_ID [--out FILE]`: resumes a paused crawl (or follows a running one) like `trawl crawl`. */
export const resumeCommand: CommandSpec = {
  name: 'resume',
  description: 'Resume a paused crawl and follow it to its end (a running crawl is just followed); writes all its items',
  args: [{ syntax: '<crawl_id>', description: 'the crawl’s id (crawl_…)' }],
  options: [OUT],
  async run([crawlId], o, ctx) {
    const client = ctx.client();
    let crawl = await client.getCrawl(String(crawlId));
    if (crawl.status === 'paused') crawl = await client.resumeCrawl(crawl.id);
    const out = lineSink(o.out as string | undefined, ctx.stdout);
    const state = TERMINAL_STATUSES.has(crawl.status) ? 'has ended' : 'is being followed';
    const followCrawl = await follow();
    ctx.stderr.write(`${crawl.id} ${crawl.status}: ${state}; Ctrl-C stops following it\n`);
    return followCrawl(ctx, client, crawl, out);
  },
};
