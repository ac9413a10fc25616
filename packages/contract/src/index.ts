export * from './errors.ts';
export * from './common.ts';
export * from './page.ts';
export * from './fetch.ts';
export * from './crawl.ts';
export * from './trends.ts';
export * from './browser-scrape.ts';
export * from './util/lru-map.ts';
