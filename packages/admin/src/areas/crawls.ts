import { cancelCrawl, CrawlIdInput, getCrawl, listCrawls, ListCrawlsInput, pauseCrawl, resumeCrawl, type OperatorCrawlChange } from '@trawl/crawler';
import type { AdminDeps } from '../deps.ts';
import { adminError, adminProcedure, router } from '../trpc.ts';

/** A change the crawl's state did not allow is a CONFLICT naming the state it is in; an unknown crawl NOT_FOUND. */
function changed(r: OperatorCrawlChange) {
  if (r.ok) return r.crawl;
  if (r.reason === 'not_found') throw adminError('NOT_FOUND', 'no such crawl');
  throw adminError('CONFLICT', `the crawl is ${r.status}`);
}

/**
 * crawls.list / get / pause / resume / cancel across teams. Cancel ends the crawl at once (status `failed`,
 * failure `cancelled`): queued pages dropped, pages in flight not delivered, billing settled for what it delivered.
 */
export function crawlsArea({ crawl }: AdminDeps) {
  return router({
    /** Newest first, filtered by team and status; `next_cursor` continues (a filtered page may come back short). */
    list: adminProcedure.input(ListCrawlsInput).query(async ({ input }) => {
      const page = await listCrawls(crawl, input);
      if (!page.ok) throw adminError('BAD_REQUEST', 'cursor is not one this listing gave');
      return { crawls: page.crawls, next_cursor: page.next_cursor };
    }),
    get: adminProcedure.input(CrawlIdInput).query(async ({ input }) => {
      const found = await getCrawl(crawl, input);
      if (!found) throw adminError('NOT_FOUND', 'no such crawl');
      return found;
    }),
    pause: adminProcedure.input(CrawlIdInput).mutation(async ({ input }) => changed(await pauseCrawl(crawl, input))),
    resume: adminProcedure.input(CrawlIdInput).mutation(async ({ input }) => changed(await resumeCrawl(crawl, input))),
    cancel: adminProcedure.input(CrawlIdInput).mutation(async ({ input }) => changed(await cancelCrawl(crawl, input))),
  });
}
