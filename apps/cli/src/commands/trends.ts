import type { TrendsJob, TrendsRelatedQuery, TrendsRequest } from '@trawl/client';
import type { CommandSpec } from '../command-spec.ts';
import { exitCode } from '../exit-codes.ts';
import { safeJson, safeText, writeOut } from '../output.ts';
import { integer } from '../parse.ts';

const WAIT_MS = 1000;

/**
 * `trawl trends KEYWORD… [--geo G] [--timeframe T] [--category N] [--property P] [--hl L] [--tz N] [--json]`: one
 * Related Queries job per keyword (the rest of the grain shared), waited for, then its Top and Rising queries.
 */
export const trendsCommand: CommandSpec = {
  name: 'trends',
  description: 'Search-trends Related Queries: one job per keyword, waited for; prints Top and Rising queries',
  args: [{ syntax: '<keywords...>', description: 'search terms (quote a term with spaces)' }],
  options: [
    { flags: '--geo <geo>', description: '"" worldwide, a country (US) or subdivision (US-CA)', defaultValue: '' },
    { flags: '--timeframe <range>', description: 'e.g. "today 12-m", "now 7-d", "2021-01-01 2021-12-31"', defaultValue: 'today 12-m' },
    { flags: '--category <id>', description: 'Google Trends category id, 0 for all', defaultValue: '0', parse: integer(0, 2_000_000) },
    { flags: '--property <property>', description: '"" (web search), images, news, youtube or froogle', defaultValue: '' },
    { flags: '--hl <tag>', description: 'language tag', defaultValue: 'en-US' },
    { flags: '--tz <minutes>', description: 'timezone offset in minutes, sign as Google expects (US Central: 360)', defaultValue: '0', parse: integer(-1440, 1440) },
    { flags: '--json', description: 'print the jobs as a JSON array' },
  ],
  async run([keywords], o, ctx) {
    const client = ctx.client();
    // Defaults reach us unparsed (as written above); parsed values are numbers.
    const grain = (keyword: string): TrendsRequest => ({
      keyword,
      geo: String(o.geo),
      timeframe: String(o.timeframe),
      // Any id reaches the server, which checks it against the category tree (400 validation_error naming it).
      category: Number(o.category) as TrendsRequest['category'],
      property: String(o.property) as TrendsRequest['property'],
      hl: String(o.hl),
      tz: Number(o.tz),
    });
    const created: TrendsJob[] = [];
    for (const k of keywords as string[]) created.push(await client.createTrendsJob(grain(k)));
    const jobs = await Promise.all(created.map((j) => client.waitForTrendsJob(j.id, { intervalMs: WAIT_MS })));
    await writeOut(ctx.stdout, o.json ? `${safeJson(jobs, 2)}\n` : jobs.map(jobText).join('\n'));
    return jobs.every((j) => j.state === 'completed') ? exitCode('ok') : exitCode('job_failed');
  },
};

function jobText(job: TrendsJob): string {
  const head = `${safeText(job.request.keyword)} (${job.id}, ${job.state})\n`;
  if (!job.result) return `${head}  ${job.error ? safeText(`${job.error.code}: ${job.error.message}`) : 'no result'}\n`;
  return `${head}${list('Top', job.result.top)}${list('Rising', job.result.rising)}`;
}

function list(title: string, items: TrendsRelatedQuery[]): string {
  if (items.length === 0) return `  ${title}: none\n`;
  const width = Math.max(...items.map((i) => i.formatted_value.length));
  return `  ${title}\n${items.map((i) => `    ${safeText(i.formatted_value).padStart(width)}  ${safeText(i.query)}\n`).join('')}`;
}
