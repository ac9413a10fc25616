import type { DocumentHop, HopDecision } from './driver.ts';
import type { EgressPolicy } from './egress-policy.ts';

export type MainRefusal = 'blocked_target' | 'dns_failed' | 'redirect_limit' | 'out_of_scope_redirect';

/** Schemes that never reach the network (the browser serves them itself). */
export function isLocalScheme(url: string): boolean {
  return url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:');
}

/**
 * Request decisions of one render, in front of the egress gate (which enforces the SSRF guard on sockets
 * whatever happens here). Here the guard's verdict is turned into clean request failures, and the top document's
 * own rules apply: at most `maxRedirects` hops, and every later hop (redirect or script navigation) must satisfy
 * the caller's allowNavigation (a crawl's scope).
 *
 * A refusal inside the first navigation chain fails the render (mainRefusal says why). A refused later navigation
 * is cancelled instead, so the document already rendered stays and is delivered.
 */
export class NavigationGuard {
  mainRefusal: MainRefusal | null = null;
  /** Later top-document navigations that were cancelled. */
  cancelledNavigations = 0;
  private initialChain: string | null = null;
  private readonly chains = new Map<string, { hops: number; last: string }>();

  constructor(
    private readonly policy: EgressPolicy,
    private readonly maxRedirects: number,
    private readonly allowNavigation: ((from: URL, to: URL) => boolean) | undefined,
    /** The top document's URL now (what a new navigation leaves). */
    private readonly currentUrl: () => string | null,
  ) {}

  async allowRequest(url: string): Promise<boolean> {
    if (isLocalScheme(url)) return true;
    return (await this.policy.checkUrl(url)).allowed;
  }

  async decide(hop: DocumentHop): Promise<HopDecision> {
    if (isLocalScheme(hop.url)) return 'continue';
    if (!hop.mainFrame) return (await this.policy.checkUrl(hop.url)).allowed ? 'continue' : 'refuse';
    if (this.initialChain === null) this.initialChain = hop.chainId;
    const initial = hop.chainId === this.initialChain;
    const refusal = await this.judgeTopHop(hop, initial);
    if (refusal === null) return 'continue';
    if (initial) {
      this.mainRefusal ??= refusal;
      return 'refuse';
    }
    this.cancelledNavigations++;
    return 'cancel';
  }

  private async judgeTopHop(hop: DocumentHop, initial: boolean): Promise<MainRefusal | null> {
    const chain = this.chains.get(hop.chainId);
    if (hop.redirect && chain) {
      chain.hops++;
      if (chain.hops > this.maxRedirects) return 'redirect_limit';
      if (!this.inScope(chain.last, hop.url)) return 'out_of_scope_redirect';
      chain.last = hop.url;
    } else {
      // A new navigation: the caller's own URL needs no scope check, a script's navigation away from it does.
      const from = initial ? null : this.currentUrl();
      if (from !== null && !this.inScope(from, hop.url)) return 'out_of_scope_redirect';
      this.chains.set(hop.chainId, { hops: 0, last: hop.url });
    }
    const verdict = await this.policy.checkUrl(hop.url);
    if (verdict.allowed) return null;
    return verdict.reason === 'blocked' ? 'blocked_target' : 'dns_failed';
  }

  private inScope(from: string, to: string): boolean {
    if (!this.allowNavigation) return true;
    try {
      return this.allowNavigation(new URL(from), new URL(to));
    } catch {
      return false;
    }
  }
}
