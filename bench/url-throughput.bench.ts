import { compileScope, normalizeUrl, type CrawlScope } from '@trawl/frontier';
import type { ScenarioResult } from './support/table.ts';

/**
 * The per-link hot path of a crawl page (normalize, then the scope check) on a realistic link mix, beside the
 * WHATWG URL parser alone (the floor any normalizer pays). Counts are checked, so every loop does the real work.
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

export default async function run(): Promise<ScenarioResult> {
  const bases = Array.from({ length: PAGES }, (_, p) => `https://shop.example.test/catalog/list-${p}.html?sort=asc`);
  const links = Array.from({ length: PAGES }, (_, p) => pageLinks(p));
  const total = links.length * links[0].length;
  const each = (fn: (link: string, base: string) => boolean) => () => {
    let n = 0;
    for (let p = 0; p < links.length; p++) for (const link of links[p]) if (fn(link, bases[p])) n++;
    return n;
  };
  const pipeline = (scope: CrawlScope) => {
    const rule = compileScope(SEED, scope);
    return measure(total, each((link, base) => {
      const url = normalizeUrl(link, base);
      return url !== null && rule.allows(url);
    }));
  };
  const whatwg = measure(total, each((link, base) => {
    try {
      return new URL(link, base).protocol.startsWith('http');
    } catch {
      return false;
    }
  }));
  const normalizeOnly = measure(total, each((link, base) => normalizeUrl(link, base) !== null));
  const domain = pipeline('same_domain');
  const hostname = pipeline('same_hostname');
  const canonical = links.flatMap((page, p) => page.map((l) => normalizeUrl(l, bases[p])).filter((u) => u !== null));
  const rule = compileScope(SEED, 'same_origin');
  const allowsOnly = measure(canonical.length, () => canonical.filter((url) => rule.allows(url)).length);

  const row = (label: string, m: { usPerItem: number; result: number }, expected: number) => [
    label,
    m.usPerItem,
    m.usPerItem / whatwg.usPerItem,
    `${m.result}/${expected}${m.result === expected ? '' : ' WRONG'}`,
  ];
  return {
    title: 'url-throughput: normalize and scope-check the links of a crawl page',
    columns: ['work', 'µs per link', '÷ WHATWG URL parse', 'links kept / expected'],
    rows: [
      row('WHATWG URL parse (http(s) only), the floor', whatwg, total * 0.8),
      row('normalizeUrl', normalizeOnly, total * 0.8),
      row('normalizeUrl + same_domain', domain, total * 0.6),
      row('normalizeUrl + same_hostname', hostname, total * 0.5),
      row('same_origin allows() on canonical URLs', allowsOnly, total * 0.6),
    ],
    notes: [`${total} links (${PAGES} pages × 10 kinds), best of three runs after a warm-up, one thread.`],
  };
}
