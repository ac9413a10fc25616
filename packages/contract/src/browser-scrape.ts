import { z } from 'zod';
import { HttpUrl } from './common.ts';
import { BrowserControls } from './crawl.ts';

/** POST /v1/browser-scrape: one URL rendered in the browser engine (README.md, "Browser scrape"). */
export const BrowserScrapeRequest = z
  .strictObject({
    url: HttpUrl,
    browser: BrowserControls.optional(),
    screenshot: z.boolean().optional().meta({ description: 'Adds a full-page PNG artifact `screenshot`.' }),
    record: z.boolean().optional().meta({ description: 'Adds a HAR artifact `har` (no bodies; cookies and credentials redacted).' }),
  })
  .meta({ id: 'BrowserScrapeRequest' });
export type BrowserScrapeRequest = z.infer<typeof BrowserScrapeRequest>;
