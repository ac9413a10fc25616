import { z } from 'zod';
import { HttpUrl } from './common.ts';

/** Events a crawl's webhook may ask for (POST /v1/crawl `webhook.events`). */
export const WEBHOOK_EVENTS = ['crawl.started', 'crawl.page', 'crawl.completed', 'crawl.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * Why one delivery attempt failed: a fixed vocabulary (diagnostics and metrics carry these, never a URL, a header
 * or a body). `retryable` says whether another attempt follows (until the attempts run out).
 */
export const WEBHOOK_FAILURES = {
  timeout: { retryable: true },
  network: { retryable: true },
  http_5xx: { retryable: true },
  http_429: { retryable: true },
  http_408: { retryable: true },
  http_4xx: { retryable: false },
  http_3xx: { retryable: false },
  blocked_target: { retryable: false },
  gone: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;
export type WebhookFailure = keyof typeof WEBHOOK_FAILURES;
export const WEBHOOK_FAILURE_NAMES = Object.keys(WEBHOOK_FAILURES) as WebhookFailure[];

export const WEBHOOK_LIMITS = { secret: { min: 16, max: 256 } } as const;

export const WebhookRequest = z
  .strictObject({
    url: HttpUrl.meta({ description: 'Where events are POSTed. Judged by the SSRF guard like any fetch, at every delivery; never through the proxy.' }),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .max(WEBHOOK_EVENTS.length)
      .optional()
      .meta({ description: 'Events to send; default all four. crawl.completed / crawl.failed are the terminal transitions.' }),
    secret: z
      .string()
      .min(WEBHOOK_LIMITS.secret.min)
      .max(WEBHOOK_LIMITS.secret.max)
      .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces')
      .meta({ description: 'Signs every delivery (Trawl-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">). Never shown again.' }),
    payload: z
      .enum(['full', 'thin'])
      .optional()
      .meta({ description: 'crawl.page carries the whole item (full, default) or only its id and URLs (thin: read it with GET …/items).' }),
  })
  .meta({ id: 'WebhookRequest', description: 'A documented extension of v1: crawl events POSTed to your endpoint, signed, at least once.' });
export type WebhookRequest = z.infer<typeof WebhookRequest>;

/** The crawl's webhook as CrawlJob.request shows it: never the secret. */
export const WebhookView = z.strictObject({ url: z.string(), events: z.array(z.enum(WEBHOOK_EVENTS)), payload: z.enum(['full', 'thin']) });

const Count = z.int().nonnegative();
export const WebhookDiagnostics = z
  .strictObject({
    events: Count.meta({ description: 'Events queued for delivery.' }),
    delivered: Count,
    failed: Count.meta({ description: 'Events given up on (attempts exhausted or a permanent refusal).' }),
    pending: Count,
    retries: Count.meta({ description: 'Attempts after a failed one.' }),
    failure_reasons: z.record(z.string(), Count).meta({ description: 'Failed attempts per reason (timeout, network, http_5xx, http_4xx, blocked_target, ...).' }),
  })
  .meta({ id: 'WebhookDiagnostics' });
export type WebhookDiagnostics = z.infer<typeof WebhookDiagnostics>;
