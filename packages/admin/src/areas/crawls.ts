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
    list: adminProcedure
      .meta({
        description: 'Crawls of every team, newest first, filtered by team and status; a filtered page may come back short with a cursor to go on from.',
        returns: '`{crawls, next_cursor}`.',
      })
      .input(ListCrawlsInput).query(async ({ input }) => {
      const page = await listCrawls(crawl, input);
      if (!page.ok) throw adminError('BAD_REQUEST', 'cursor is not one this listing gave');
      return { crawls: page.crawls, next_cursor: page.next_cursor };
    }),
    get: adminProcedure
      .meta({
        description: 'One crawl as its team sees it, plus `team_id`, `finalized` and a plan summary (never its seed URLs).',
        returns: 'The crawl.',
      })
      .input(CrawlIdInput).query(async ({ input }) => {
      const found = await getCrawl(crawl, input);
      if (!found) throw adminError('NOT_FOUND', 'no such crawl');
      return found;
    }),
    pause: adminProcedure
      .meta({
        description: 'Pauses a queued or running crawl of any team (CONFLICT naming its status otherwise).',
        returns: 'The crawl.',
      })
      .input(CrawlIdInput).mutation(async ({ input }) => changed(await pauseCrawl(crawl, input))),
    resume: adminProcedure
      .meta({
        description: 'Resumes a paused crawl of any team (CONFLICT naming its status otherwise).',
        returns: 'The crawl.',
      })
      .input(CrawlIdInput).mutation(async ({ input }) => changed(await resumeCrawl(crawl, input))),
    cancel: adminProcedure
      .meta({
        description: 'Ends a queued, running or paused crawl as `failed` (`failure.code: cancelled`): queued and leased pages dropped, workers told at once, billing settled for what it delivered.',
        returns: 'The crawl.',
      })
      .input(CrawlIdInput).mutation(async ({ input }) => changed(await cancelCrawl(crawl, input))),
  });
}
