import { TrendsJobResponse, type TrendsJob } from '@trawl/contract';
import type { TestGateway } from './gateway.ts';

type Caller = Pick<TestGateway, 'call'>;

/** The grain of the recorded fixtures (shared/fixtures/google-trends/README.md); tests vary one field to get others. */
export const PIZZA_GRAIN = { keyword: 'pizza', geo: '', timeframe: '2021-01-01 2021-12-31', category: 0, property: '', hl: 'en-US', tz: 360 };

/** POST /v1/search-trends/related-queries; fails the test unless it answers 202 with a TrendsJob. */
export async function createTrendsJob(gw: Caller, grain: unknown, headers: Record<string, string> = {}): Promise<TrendsJob> {
  const res = await gw.call('POST', '/v1/search-trends/related-queries', grain, headers);
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST related-queries answered ${res.status}: ${text}`);
  return TrendsJobResponse.parse(JSON.parse(text)).job;
}

export async function getTrendsJob(gw: Caller, id: string): Promise<TrendsJob> {
  const res = await gw.call('GET', `/v1/search-trends/jobs/${id}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET trends job answered ${res.status}: ${text}`);
  return TrendsJobResponse.parse(JSON.parse(text)).job;
}

/** Polls a job until `until` holds (default: completed or failed). The timeout is a "does not hang" bound. */
export async function waitForTrendsJob(
  gw: Caller,
  id: string,
  opts: { until?: (job: TrendsJob) => boolean; timeoutMs?: number; context?: () => string } = {},
): Promise<TrendsJob> {
  const until = opts.until ?? ((j) => j.state === 'completed' || j.state === 'failed');
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const job = await getTrendsJob(gw, id);
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`trends job ${id} still ${job.state} (attempts ${job.attempts})\n${opts.context?.() ?? ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
