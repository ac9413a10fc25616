import { z } from 'zod';
import { HttpUrl, Timestamp } from './common.ts';

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

/** Delivery states of one event (GET /v1/crawl/{id}/webhooks). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDelivery = z
  .strictObject({
    id: z.string().meta({ description: 'The event id: the body\'s `id` and the Trawl-Event-Id header, the same at every attempt (deduplicate by it).' }),
    event: z.enum(WEBHOOK_EVENTS),
    created_at: Timestamp.meta({ description: 'When the event was queued.' }),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .meta({ description: 'pending (queued, in flight or waiting for a retry), delivered (a 2xx answer) or failed (given up: attempts spent or a permanent refusal).' }),
    attempts: Count.meta({ description: 'Attempts started so far (the last one\'s Trawl-Delivery-Attempt).' }),
    last_attempt_at: Timestamp.nullable().meta({ description: 'When the last attempt started; null before the first.' }),
    next_attempt_at: Timestamp.nullable().meta({ description: 'Pending only: when the next attempt is due; null while an attempt is in flight and once settled.' }),
    last_outcome: z
      .strictObject({
        reason: z.enum(['none', ...WEBHOOK_FAILURE_NAMES]).meta({ description: 'none for a 2xx answer, else why the attempt failed (as in diagnostics.webhooks.failure_reasons).' }),
        http_status: z.int().min(100).max(999).nullable().meta({ description: 'The receiver\'s status; null when it never answered (timeout, network, a refused target, the item gone).' }),
        duration_ms: Count.meta({ description: 'From sending the attempt to its answer or failure.' }),
      })
      .nullable()
      .meta({ description: 'The last finished attempt; null before one finished.' }),
    item_id: z.string().nullable().meta({ description: 'crawl.page: the item (GET …/items) the event carries; null for the other events.' }),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event of the crawl\'s webhook and how its delivery went. Never the URL, the secret, a header or a body.' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesPage = z
  .strictObject({
    deliveries: z.array(WebhookDelivery).meta({ description: 'In queueing order; [] for a crawl without a webhook.' }),
    next_cursor: z.string().nullable().meta({ description: 'Opaque. null when no more events exist yet and none will be queued (the crawl and its events have ended, or it has no webhook).' }),
  })
  .meta({ id: 'WebhookDeliveriesPage' });
export type WebhookDeliveriesPage = z.infer<typeof WebhookDeliveriesPage>;
