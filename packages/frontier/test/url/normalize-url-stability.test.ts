import { describe, expect, it } from 'vitest';
import { hostOf, normalizeUrl } from '../../src/url/index.ts';

/** Deterministic pseudo-random generator (mulberry32), so a failure is reproducible from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATH_PIECES = ['/', '.', '..', '%2e', '%2E', '%7e', '%7E', '~', '%41', '%c3%a9', 'é', '%2f', '%25', '%', '%z', 'a', 'B', ' ', '?', '#', '&', '=', ';', '\\', '%3f'];
const HOSTS = ['site.test', 'Site.TEST.', 'sub.shop.example.test..', '127.0.0.1', '0x7f.1', '[::1]', 'Bücher.example', 'ex%41mple.test'];
const PREFIXES = ['http://', 'HTTPS://', 'https://', 'http:'];
const PORTS = ['', ':80', ':443', ':8080', ':0443'];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)];
}

describe('normalizeUrl stability on generated URLs', () => {
  it('gives a form that is its own normal form and that the URL parser leaves unchanged', () => {
    const next = random(20240611);
    let checked = 0;
    for (let n = 0; n < 5000; n++) {
      let rest = pick(next, ['/', '/', '?', '#']); // what follows an authority
      const pieces = Math.floor(next() * 12);
      for (let k = 0; k < pieces; k++) rest += pick(next, PATH_PIECES);
      const input = pick(next, PREFIXES) + pick(next, HOSTS) + pick(next, PORTS) + rest;
      const once = normalizeUrl(input);
      if (once === null) continue;
      checked++;
      expect(normalizeUrl(once), input).toBe(once);
      expect(new URL(once).href.replace(/#.*$/s, ''), input).toBe(once);
      expect(once.includes('#'), input).toBe(false);
      expect(hostOf(once), input).toBe(new URL(once).hostname);
    }
    expect(checked).toBeGreaterThan(2500);
  });
});
