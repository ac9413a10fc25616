/**
 * Structural limits on one page, so that the cost of a hostile document is bounded before it is paid: parsing
 * and every pass after it are linear in elements once nesting is capped. Beyond a limit the page is handled
 * degraded, never refused: deeper tags are flattened into their ancestor's text, the page is cut after the element
 * cap, links past the link cap are left out. Which limits applied is reported (diagnostics.content_quality.limits_applied).
 */
export interface ContentLimits {
  /** Nesting depth of elements (Chromium's parser stops nesting at 512 too). */
  maxDepth: number;
  /** Elements per page: the page is cut after this many (later tags and text are left out). */
  maxElements: number;
  /** Links in content.links (and so links a crawl may follow from one page); 50,000 is the sitemap protocol's cap. */
  maxLinks: number;
}

export const DEFAULT_CONTENT_LIMITS: ContentLimits = { maxDepth: 512, maxElements: 100_000, maxLinks: 50_000 };

/** The limits that shaped a page's output, in a stable order. */
export type LimitApplied = 'nesting_depth' | 'element_count' | 'link_count';
