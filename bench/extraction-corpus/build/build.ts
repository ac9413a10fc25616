import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR } from '../../support/extraction-corpus.ts';
import type { SiteBuild } from './site.ts';
import * as courseCatalog from './course-catalog.ts';
import * as eventCalendar from './event-calendar.ts';
import * as forumThread from './forum-thread.ts';
import * as hotelSearch from './hotel-search.ts';
import * as jobBoard from './job-board.ts';
import * as newsList from './news-list.ts';
import * as packageList from './package-list.ts';
import * as podcastEpisodes from './podcast-episodes.ts';
import * as realEstate from './real-estate.ts';
import * as recipeCards from './recipe-cards.ts';
import * as reviewList from './review-list.ts';
import * as searchResults from './search-results.ts';
import * as shopGrid from './shop-grid.ts';
import * as tableListing from './table-listing.ts';

/**
 * Writes bench/extraction-corpus/<site>/ from the site modules beside this file:
 * `node --import tsx bench/extraction-corpus/build/build.ts`. The expected records are written from each site's
 * data by hand-stated rules, not by running an extractor; test/extraction/corpus.test.ts then checks them against
 * the pages with an independent implementation (bench/support/extraction-cheerio-loop.ts), under both parsers.
 */
const SITES: (() => SiteBuild)[] = [
  courseCatalog.build, eventCalendar.build, forumThread.build, hotelSearch.build, jobBoard.build, newsList.build, packageList.build, podcastEpisodes.build, realEstate.build, recipeCards.build, reviewList.build, searchResults.build, shopGrid.build, tableListing.build,
];

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

for (const make of SITES) {
  const site = make();
  const dir = join(CORPUS_DIR, site.id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'site.json'), json(site.meta));
  writeFileSync(join(dir, 'schema.json'), json(site.schema));
  writeFileSync(join(dir, 'schema-v2.json'), json(site.schemaV2));
  writeFileSync(join(dir, 'v1.html'), site.v1);
  writeFileSync(join(dir, 'v2.html'), site.v2);
  writeFileSync(join(dir, 'expected-v1.json'), json(site.expectedV1));
  writeFileSync(join(dir, 'expected-v2.json'), json(site.expectedV2));
  process.stdout.write(`${site.id}: ${site.expectedV1.length} records (v1), ${site.expectedV2.length} (v2)\n`);
}
