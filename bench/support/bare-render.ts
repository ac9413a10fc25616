import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

/**
 * The bare playwright-core peers of the render-fidelity benchmark, in a process of their own. Announces {ready}
 * on stdout, then for every stdin line `<waitUntil> <timeoutMs> <url>` renders the URL in a fresh context
 * (goto with that waitUntil, then the body's visible text, as a reader sees it) and prints {ms, text}. A goto
 * that times out still reads what the page shows by then: that is what such a loop would return.
 */
const browser = await chromium.launch({
  executablePath: process.env.TRAWL_CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const [waitUntil, timeoutMs, url] = line.split(' ');
  const t0 = performance.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  let timedOut = false;
  try {
    await page.goto(url, { waitUntil: waitUntil as 'load' | 'networkidle', timeout: Number(timeoutMs) });
  } catch {
    timedOut = true;
  }
  const text = await page.evaluate('document.body ? document.body.innerText : ""').catch(() => '') as string;
  const ms = performance.now() - t0;
  await context.close();
  process.stdout.write(`${JSON.stringify({ ms, text, timedOut })}\n`);
}
await browser.close();
