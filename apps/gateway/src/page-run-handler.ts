import type { FastifyRequest } from 'fastify';
import { INTERNAL_FAILURE } from '@trawl/contract';
import { deliverPage, failPageRun, startPageRun } from '@trawl/runs';
import type { ScrapeOutcome } from '@trawl/scrape';
import { ApiError, quotaExceededError } from './api-error.ts';
import type { GatewayContext } from './context.ts';
import { refusal, type CreationResult } from './idempotency.ts';
import { pageFailureError } from './page-failure.ts';
import { teamOf } from './plugins/auth.ts';

/**
 * One synchronous page run (Fetch, Browser scrape): take the quota unit, reserve the credit and open the run,
 * scrape, then deliver the page (200) or close the run failed (quota and credit given back) and answer the page
 * outcome's error. Both are replayable; a refusal (429 quota_exceeded, 402) created nothing and is not.
 */
export async function runPageCreation(
  ctx: GatewayContext,
  request: FastifyRequest,
  type: 'fetch' | 'browser_scrape',
  scrape: () => Promise<ScrapeOutcome>,
): Promise<CreationResult> {
  const started = await startPageRun(ctx.runs, teamOf(request), type);
  if (!started.ok) {
    const e =
      started.reason === 'quota_exceeded'
        ? quotaExceededError(started.resource)
        : new ApiError('payment_required', 'the team has no credit left', { details: { resource: 'scrape' } });
    return refusal(request, e);
  }
  const record = started.record;
  try {
    const outcome = await scrape();
    if (outcome.ok) return { status: 200, body: await deliverPage(ctx.runs, record, outcome.page), replayable: true };
    const run = await failPageRun(ctx.runs, record, outcome.failure);
    const e = pageFailureError(outcome.failure, run.id);
    return { status: e.status, body: e.toBody(request.id), replayable: true, headers: e.headers };
  } catch (err) {
    await failPageRun(ctx.runs, record, { blockReason: INTERNAL_FAILURE, retryable: true });
    throw err;
  }
}
