import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WebhookFailure } from '@trawl/contract';
import { BlockedTargetError, type SsrfGuard } from '@trawl/net';

export interface WebhookRequestOut {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export type SendResult = { ok: true; status: number } | { ok: false; reason: WebhookFailure; status?: number };

/** Reused connections: a receiver taking hundreds of events a second is not asked for a handshake each time. */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };
/** What is read of a receiver's answer before the socket is let go: its body is never kept. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs one event. The receiver's host is judged by the SSRF guard and the socket opened to the very address it
 * judged (pinned lookup), as every outbound request of ours; redirects are not followed (a 3xx is a refusal), no
 * proxy is used. Never throws: the outcome is a status or a failure of WEBHOOK_FAILURES.
 */
export async function sendWebhook(guard: SsrfGuard, req: WebhookRequestOut): Promise<SendResult> {
  const url = new URL(req.url);
  const secure = url.protocol === 'https:';
  let lookup;
  try {
    const target = await guard.resolve(url.hostname, url.port === '' ? (secure ? 443 : 80) : Number(url.port));
    lookup = guard.pinnedLookupFn(url.hostname, target);
  } catch (err) {
    return { ok: false, reason: err instanceof BlockedTargetError ? 'blocked_target' : 'network' };
  }
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const body = Buffer.from(req.body);
    const options = {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(body.length) },
      lookup,
      agent: secure ? agents.https : agents.http,
    };
    const r = (secure ? httpsRequest : httpRequest)(url, options, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      res.on('end', () => done(resultOf(status)));
      res.on('close', () => done(resultOf(status)));
      res.on('error', () => done(resultOf(status)));
    });
    const timer = setTimeout(() => {
      done({ ok: false, reason: 'timeout' });
      r.destroy();
    }, req.timeoutMs);
    r.on('error', (err) => done({ ok: false, reason: err instanceof BlockedTargetError ? 'blocked_target' : 'network' }));
    r.end(body);
  });
}

function resultOf(status: number): SendResult {
  if (status >= 200 && status < 300) return { ok: true, status };
  const reason: WebhookFailure =
    status === 408 ? 'http_408' : status === 429 ? 'http_429' : status >= 500 ? 'http_5xx' : status >= 400 ? 'http_4xx' : 'http_3xx';
  return { ok: false, reason, status };
}
