import { describe, expect, it } from 'vitest';
import { compileScope, normalizeUrl, type CrawlScope } from '../../src/url/index.ts';

/**
 * Micro-benchmark of the per-link hot path (normalize, then scope check) on a realistic link mix. Timings are
 * printed, never asserted (DESIGN.md: performance claims live in bench/); the counts are asserted so the loop
 * measures real work.
 */
const PAGES = 10_000;
const SEED = 'https://shop.example.test/';

function pageLinks(i: number): string[] {
  return [
    `/catalog/item-${i}.html`, // same host
    `item-${i}.html?ref=list&page=${i % 7}`, // same host
    '../about/%7eteam/', // same host, escape decoded
    '#reviews', // the page itself
    `https://sub.shop.example.test/p/${i}`, // same domain, other host
    `https://cdn.other.test/img/${i}.png`, // other domain
    'mailto:sales@example.test', // not crawlable
    'javascript:void(0)', // not crawlable
    `//Shop.Example.TEST/Caf%c3%a9/${i}`, // same host once normalized
    `https://www.example2.co.uk/path/${i}?utm=x#frag`, // other domain
  ];
}

/** Best of three runs after a warm-up, in µs per item, with the result of the last run. */
function measure(items: number, work: () => number): { usPerItem: number; result: number } {
  let result = work();
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const started = performance.now();
    result = work();
    best = Math.min(best, performance.now() - started);
  }
  return { usPerItem: (best * 1000) / items, result };
}

describe('url hot path throughput', () => {
  it('normalizes and scope-checks 100k links (timing printed)', () => {
    const bases = Array.from({ length: PAGES }, (_, p) => `https://shop.example.test/catalog/list-${p}.html?sort=asc`);
    const links = Array.from({ length: PAGES }, (_, p) => pageLinks(p));
    const total = links.length * links[0].length;

    const pipeline = (scope: CrawlScope) => {
      const rule = compileScope(SEED, scope);
      return measure(total, () => {
        let allowed = 0;
        for (let p = 0; p < links.length; p++) {
          for (const link of links[p]) {
            const url = normalizeUrl(link, bases[p]);
            if (url !== null && rule.allows(url)) allowed++;
          }
        }
        return allowed;
      });
    };
    const normalizeOnly = measure(total, () => {
      let normalized = 0;
      for (let p = 0; p < links.length; p++) for (const link of links[p]) if (normalizeUrl(link, bases[p]) !== null) normalized++;
      return normalized;
    });
    const domain = pipeline('same_domain');
    const hostname = pipeline('same_hostname');
    expect(normalizeOnly.result).toBe(total * 0.8);
    expect(domain.result).toBe(total * 0.6);
    expect(hostname.result).toBe(total * 0.5);

    const canonical = links.flatMap((page, p) => page.map((l) => normalizeUrl(l, bases[p])).filter((u) => u !== null));
    const rule = compileScope(SEED, 'same_origin');
    const allowsOnly = measure(canonical.length, () => canonical.filter((url) => rule.allows(url)).length);
    expect(allowsOnly.result).toBe(total * 0.6);

    const us = (m: { usPerItem: number }) => m.usPerItem.toFixed(3);
    console.log(
      `[url throughput] ${total} links, µs/link: normalize ${us(normalizeOnly)}, normalize+same_domain ${us(domain)}, ` +
        `normalize+same_hostname ${us(hostname)}; same_origin allows() alone ${us(allowsOnly)}`,
    );
  });
});
