import { chromium } from 'playwright-core';
import { chromiumPssMb } from './pss.ts';

/**
 * The bare playwright-core loop the browser pool is measured against: `size` workers, each rendering the page in
 * a fresh context (as the pool does) and reading its HTML, for `seconds`. Prints {renders, seconds, pssMb}.
 */
const [url, sizeArg, secondsArg] = process.argv.slice(2);
const size = Number(sizeArg);
const seconds = Number(secondsArg);
const browser = await chromium.launch({
  executablePath: process.env.TRAWL_CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
});
let renders = 0;
let pss = 0;
const end = Date.now() + 1500 + seconds * 1000;
const measureFrom = Date.now() + 1500;
const sampler = setInterval(() => {
  if (Date.now() > measureFrom) pss = Math.max(pss, chromiumPssMb(process.pid));
}, 500);
await Promise.all(
  Array.from({ length: size }, async () => {
    while (Date.now() < end) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForSelector('article');
      await page.content();
      await context.close();
      if (Date.now() > measureFrom) renders += 1;
    }
  }),
);
clearInterval(sampler);
await browser.close();
process.stdout.write(`${JSON.stringify({ renders, seconds: (Date.now() - measureFrom) / 1000, pssMb: pss })}\n`);
