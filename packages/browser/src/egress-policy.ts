import { BlockedTargetError, HostResolutionError, type ResolvedAddress, type SsrfGuard } from '@trawl/net';

export type EgressVerdict =
  | { allowed: true; address: ResolvedAddress }
  | { allowed: false; reason: 'blocked' | 'unresolved' };

/**
 * The SSRF decisions of one render. Each host:port is resolved by the guard once and the answer is kept for the
 * render, so the request interceptor (which decides whether Chromium may send a request) and the egress gate
 * (which opens the socket) act on the same checked address: Chromium never resolves a name itself, and a DNS
 * answer that changes mid-render (rebinding) cannot move a connection to an address nobody judged.
 */
export class EgressPolicy {
  private readonly verdicts = new Map<string, Promise<EgressVerdict>>();
  private refusedCount = 0;

  constructor(private readonly guard: SsrfGuard) {}

  /** Requests refused so far (both layers; a refused host is counted each time something asks for it). */
  get refused(): number {
    return this.refusedCount;
  }

  async check(hostname: string, port: number): Promise<EgressVerdict> {
    const key = `${hostname.toLowerCase()}\n${port}`;
    let verdict = this.verdicts.get(key);
    if (!verdict) {
      verdict = this.judge(hostname, port);
      this.verdicts.set(key, verdict);
    }
    const v = await verdict;
    if (!v.allowed) this.refusedCount++;
    return v;
  }

  /** check() for a URL; anything but http(s) is refused (the browser must not reach file:, ftp:, ... at all). */
  async checkUrl(url: string): Promise<EgressVerdict> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      this.refusedCount++;
      return { allowed: false, reason: 'blocked' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
      this.refusedCount++;
      return { allowed: false, reason: 'blocked' };
    }
    const secure = parsed.protocol === 'https:' || parsed.protocol === 'wss:';
    return this.check(parsed.hostname, parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port));
  }

  private async judge(hostname: string, port: number): Promise<EgressVerdict> {
    try {
      return { allowed: true, address: await this.guard.resolve(hostname, port) };
    } catch (err) {
      if (err instanceof BlockedTargetError) return { allowed: false, reason: 'blocked' };
      if (err instanceof HostResolutionError) return { allowed: false, reason: 'unresolved' };
      // Anything unexpected fails closed.
      return { allowed: false, reason: 'blocked' };
    }
  }
}
