import type { BrowserDiagnostics, FailureCategory, FailureStage } from './types.ts';

export interface FailureNote {
  category: FailureCategory;
  stage: FailureStage;
  /** One of our short codes (see NET_ERROR_CODES and the literals in render-failure.ts, render-controls.ts and render-artifacts.ts); never browser text. */
  errorCode: string;
}

export interface DiagnosticsInput {
  requests: number;
  consoleMessages: number;
  failure: FailureNote | null;
  attempts: number;
  leaseAcquired: boolean;
  virtualScroll?: { scrolls: number; rows: number } | null;
  /** How the render settled (absent when it failed before reading the page). */
  settle?: { ms: number; reason: 'stable' | 'selector' | 'bound' } | null;
}

/** diagnostics.browser_debug and browser_failure in the contract's shapes. Only counts and our own codes. */
export function browserDiagnostics(d: DiagnosticsInput): BrowserDiagnostics {
  return {
    browser_debug: {
      enabled: true,
      network_event_count: d.requests,
      console_message_count: d.consoleMessages,
      ...(d.settle ? { settle_ms: d.settle.ms, settle_reason: d.settle.reason } : {}),
      ...(d.virtualScroll ? { scroll_count: d.virtualScroll.scrolls, rows_collected: d.virtualScroll.rows } : {}),
    },
    browser_failure: {
      present: d.failure !== null,
      category: d.failure?.category ?? 'none',
      stage: d.failure?.stage ?? 'none',
      attempt_count: d.attempts,
      browser_lease_acquired: d.leaseAcquired,
      error_code: d.failure?.errorCode ?? null,
    },
  };
}

/** Chromium net errors (a fixed vocabulary) reduced to our codes; anything else is `network_error`. */
const NET_ERROR_CODES: Record<string, string> = {
  ERR_NAME_NOT_RESOLVED: 'dns_failed',
  ERR_NAME_RESOLUTION_FAILED: 'dns_failed',
  ERR_CONNECTION_REFUSED: 'connection_refused',
  ERR_CONNECTION_RESET: 'connection_reset',
  ERR_CONNECTION_CLOSED: 'connection_closed',
  ERR_CONNECTION_ABORTED: 'connection_reset',
  ERR_CONNECTION_FAILED: 'connection_failed',
  ERR_CONNECTION_TIMED_OUT: 'connect_timeout',
  ERR_TIMED_OUT: 'network_timeout',
  ERR_ADDRESS_UNREACHABLE: 'address_unreachable',
  ERR_EMPTY_RESPONSE: 'empty_response',
  ERR_INVALID_RESPONSE: 'invalid_response',
  ERR_INVALID_HTTP_RESPONSE: 'invalid_response',
  ERR_CONTENT_DECODING_FAILED: 'invalid_response',
  ERR_HTTP2_PROTOCOL_ERROR: 'protocol_error',
  // The egress gate answers a target it cannot reach (or may not reach) on a tunnel with an error status.
  ERR_TUNNEL_CONNECTION_FAILED: 'connection_failed',
  ERR_PROXY_CONNECTION_FAILED: 'egress_unavailable',
  ERR_UNSAFE_PORT: 'unsafe_port',
  ERR_ABORTED: 'navigation_aborted',
  ERR_TOO_MANY_REDIRECTS: 'redirect_limit',
  ERR_BLOCKED_BY_CLIENT: 'blocked_target',
};

export function netErrorCode(name: string | null): string {
  if (name === null) return 'network_error';
  if (/^ERR_(CERT|SSL)_/.test(name) || name === 'ERR_BAD_SSL_CLIENT_AUTH_CERT') return 'tls_error';
  return NET_ERROR_CODES[name] ?? 'network_error';
}
