import { gotScraping } from 'got-scraping';
import * as cheerio from 'cheerio';
import TurndownService from 'turndown';
import { runPeerLoop } from './peer-loop.ts';

// Our practical limit: got-scraping + one cheerio parse (+ turndown of the main content with `markdown` as the third
// argument), concurrency 64, nothing else.
const [port, hosts] = process.argv.slice(2, 4).map(Number);
const markdown = process.argv[4] === 'markdown';
const turndown = new TurndownService();

await runPeerLoop(port!, hosts!, async (url) => {
  const res = await gotScraping.get(url, { retry: { limit: 0 } });
  const $ = cheerio.load(res.body);
  const hrefs = $('a[href]')
    .map((_, a) => $(a).attr('href')!)
    .get();
  if (markdown) turndown.turndown($('main').html() ?? $('body').html() ?? '');
  return hrefs;
});
