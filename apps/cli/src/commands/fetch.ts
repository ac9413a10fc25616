import type { CommandSpec } from '../command-spec.ts';
import { exitCode } from '../exit-codes.ts';
import { safeJson, safeText, writeOut } from '../output.ts';

/** `trawl fetch URL [--browser] [--json]`: one page as Markdown (or the whole answer as JSON). */
export const fetchCommand: CommandSpec = {
  name: 'fetch',
  description: 'Fetch one URL and print its Markdown (POST /v1/fetch; --browser: POST /v1/browser-scrape)',
  args: [{ syntax: '<url>', description: 'absolute http(s) URL' }],
  options: [
    { flags: '--browser', description: 'render the page in Chromium (Browser scrape)' },
    { flags: '--json', description: 'print the whole answer ({run, result}) as JSON' },
  ],
  async run([url], options, ctx) {
    const client = ctx.client();
    const body = { url: String(url) };
    const answer = options.browser ? await client.browserScrape(body) : await client.fetchPage(body);
    const text = options.json ? safeJson(answer, 2) : safeText(answer.result.content.markdown).replace(/\n*$/, '');
    await writeOut(ctx.stdout, `${text}\n`);
    return exitCode('ok');
  },
};
