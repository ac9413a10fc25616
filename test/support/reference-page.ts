import { chromium } from 'playwright-core';

export interface RenderedReference {
  title: string;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Console errors and uncaught page errors (a CSP violation shows up here). */
  errors: string[];
  /** The operations Swagger UI rendered, as `METHOD /path`, from its operation blocks. */
  operations: string[];
}

/**
 * Opens a gateway's API reference (/docs) in Debian's Chromium and waits until Swagger UI has rendered the
 * document's operations; optionally saves a screenshot of the whole page.
 */
export async function renderReference(baseUrl: string, opts: { screenshot?: string; minOperations?: number } = {}): Promise<RenderedReference> {
  const browser = await chromium.launch({
    executablePath: process.env.TRAWL_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${baseUrl}/docs`, { waitUntil: 'load' });
    await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, opts.minOperations ?? 1, { timeout: 30_000 });
    const operations = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    if (opts.screenshot) await page.screenshot({ path: opts.screenshot, fullPage: true });
    return { title: await page.title(), requests, errors, operations };
  } finally {
    await browser.close();
  }
}
