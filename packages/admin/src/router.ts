import { frontierArea, workersArea } from './areas/cluster.ts';
import { crawlsArea } from './areas/crawls.ts';
import { creditsArea } from './areas/credits.ts';
import { keysArea } from './areas/keys.ts';
import { limitsArea } from './areas/limits.ts';
import { quotasArea } from './areas/quotas.ts';
import { retentionArea } from './areas/retention.ts';
import { teamsArea } from './areas/teams.ts';
import { trendsArea } from './areas/trends.ts';
import type { AdminDeps } from './deps.ts';
import { router } from './trpc.ts';

/**
 * The admin router: one sub-router per area, procedures named `area.verb`. A new area is a file in `areas/`
 * exporting `<area>Area(deps)` that returns `router({...})`, and one line here.
 */
export function createAdminRouter(deps: AdminDeps) {
  return router({
    teams: teamsArea(deps),
    keys: keysArea(deps),
    credits: creditsArea(deps),
    limits: limitsArea(deps),
    quotas: quotasArea(deps),
    crawls: crawlsArea(deps),
    trends: trendsArea(deps),
    workers: workersArea(deps),
    frontier: frontierArea(deps),
    retention: retentionArea(deps),
  });
}

export type AdminRouter = ReturnType<typeof createAdminRouter>;
