import { readFileSync } from 'node:fs';
import { loadConfig } from '@trawl/config';
import { createCrawl, finalizeCrawl, type CrawlServices, type StoredItem } from '@trawl/crawler';
import type { FrontierRequest } from '@trawl/frontier';
import { crawlRetentionMs, createRuntime } from '@trawl/process';

/**
 * Stores `count` delivered crawl items for the embedded-store benchmark's restart measurement, through the
 * product's own services on the store the environment names (TRAWL_DATA_DIR or REDIS_URL, as for a gateway, which
 * must be stopped on a data directory): crawls of 10,000 pages created by createCrawl for team `default`, their
 * pages leased and completed through the frontier (links admitted under scope and cap, 100 hosts × 100 pages in a
 * 5-ary tree like the bench site), each item a copy of a real one, and each crawl settled by finalizeCrawl as a
 * worker leaves it. Prints {crawl_ids, items, ms}.   argv: <count> <template item JSON file>
 */
const [countArg, templateFile] = process.argv.slice(2);
const count = Number(countArg);
const template = JSON.parse(readFileSync(templateFile!, 'utf8')) as StoredItem;
const PER_CRAWL = 10_000;
const HOSTS = 100;

const config = loadConfig({ ...process.env, TRAWL_WORKERS: '0', LOG_LEVEL: 'warn' });
const rt = await createRuntime(config, { name: 'bench-seed' });
const team = await rt.store.findTeamByName('default');
if (!team) throw new Error('no team "default": start a gateway on this store once first');
const svc: CrawlServices = {
  store: rt.store,
  crawls: rt.crawls,
  directory: rt.directory,
  billingMode: config.TRAWL_BILLING_MODE,
  artifactRetentionS: config.TRAWL_ARTIFACT_RETENTION_S,
  crawlRetentionMs: crawlRetentionMs(config),
  now: Date.now,
  log: rt.log,
  webhooks: rt.webhooks,
};

/** Page i of a host links to 5i+1 … 5i+5: every page within depth 3. */
function children(req: FrontierRequest): FrontierRequest[] {
  const i = req.url.endsWith('/') ? 0 : Number(req.url.slice(req.url.lastIndexOf('/') + 1));
  const out: FrontierRequest[] = [];
  for (let c = 5 * i + 1; c <= 5 * i + 5 && c < PER_CRAWL / HOSTS; c++) {
    out.push({ url: `http://${req.host}/p/${c}`, host: req.host, depth: req.depth + 1, seed: req.seed, parent: req.url, attempt: 0 });
  }
  return out;
}
const itemFor = (req: FrontierRequest) =>
  JSON.stringify({ ...template, url: req.url, final_url: req.url, depth: req.depth, parent_url: req.parent, created_at: new Date().toISOString() });

const t0 = performance.now();
const crawlIds: string[] = [];
let items = 0;
for (let c = 0; items < count; c++) {
  const maxPages = Math.min(PER_CRAWL, count - items);
  const hosts = Array.from({ length: Math.min(HOSTS, maxPages) }, (_, h) => `h${h}.c${c}.seed.test`);
  const created = await createCrawl(svc, team.id, { urls: hosts.map((h) => `http://${h}/`), scope: 'same_hostname', max_depth: 10, max_pages: maxPages });
  if (!created.ok) throw new Error(`crawl refused: ${created.reason}`);
  const id = created.crawl.id;
  for (const host of hosts) {
    for (;;) {
      const { leases } = await rt.crawls.lease(id, host, 100, 600_000, Date.now());
      if (leases.length === 0) break;
      const done = await Promise.all(
        leases.map((l) => rt.crawls.complete(id, l, { kind: 'delivered', item: itemFor(l.request) }, children(l.request), Date.now())),
      );
      items += done.filter((d) => d.accepted).length;
    }
  }
  const snap = await rt.crawls.getCrawl(id);
  if (snap?.status !== 'completed') throw new Error(`seeded crawl ended ${snap?.status}`);
  await finalizeCrawl({ store: rt.store, crawls: rt.crawls, directory: rt.directory, retentionMs: svc.crawlRetentionMs, log: rt.log }, snap);
  crawlIds.push(id);
}
await rt.close();
process.stdout.write(`${JSON.stringify({ crawl_ids: crawlIds, items, ms: Math.round(performance.now() - t0) })}\n`);
process.exit(0);
