import { availableParallelism, totalmem } from 'node:os';
import type { HostResolverRules } from '@trawl/net';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 50;
export const DEFAULT_RECYCLE_PAGES = 100;
/**
 * TRAWL_BROWSER_SETTLE_MAX_MS: the longest a parsed page is waited for before it is read as it is (an app shell
 * that never fills, a page that never loads). Pages that are done are read long before: see settle-policy.ts.
 */
export const DEFAULT_SETTLE_MAX_MS = 5000;
/** Redirect hops of the top document, as for the light engine (DESIGN: 10). */
export const MAX_REDIRECTS = 10;
/** The serialized DOM is held to the light engine's body limit (10 MiB): beyond it, body_size_limit. */
export const MAX_HTML_BYTES = 10 * 1024 * 1024;
/** Screenshots stop at this height (CSS px): an endless page must not become a gigabyte PNG. */
export const MAX_SCREENSHOT_HEIGHT = 16_384;
/** Frames inlined per render and how deep, so a page of nested iframes cannot make the snapshot explode. */
export const MAX_INLINED_FRAMES = 40;
export const MAX_FRAME_DEPTH = 5;

const PAGE_MEMORY_BYTES = 512 * 1024 * 1024;

/**
 * Default TRAWL_BROWSER_PAGES: one page per 512 MiB of RAM (a heavy page's renderer plus its share of the browser
 * and GPU-less compositor, with room left for Node and Redis), at most two per core (rendering is CPU-bound;
 * two keep a core busy while the other waits on the network), never below 2 nor above 8 (past 8 pages one
 * Chromium is better scaled out to another worker than up). A 2-core, 24 GiB machine gets 4.
 */
export function defaultBrowserPages(memoryBytes = totalmem(), cores = availableParallelism()): number {
  const byMemory = Math.floor(memoryBytes / PAGE_MEMORY_BYTES);
  return Math.max(2, Math.min(8, byMemory, cores * 2));
}

/**
 * Chromium's command line. The proxy flags come from Playwright (per context: the render's egress gate; browser-
 * wide: a deny-all gate). --host-resolver-rules keeps TRAWL_HOST_RESOLVER_RULES meaning the same in both engines,
 * although with every request proxied the gate resolves names (through the guard, which applies the same rules).
 * WebRTC may only use proxied TCP: without that flag a page's STUN/TURN traffic goes out over UDP, to any address,
 * past both the request interceptor and the egress gate.
 */
export function chromiumArgs(rules: HostResolverRules | undefined): string[] {
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
    // Chromium 156 spells it without the "force-" prefix that older documentation uses (that one is ignored).
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
  if (rules !== undefined && rules.size > 0) args.push(`--host-resolver-rules=${rules.toString()}`);
  return args;
}
