import { z } from 'zod';
import { MAX_RATE_LIMIT_PER_MINUTE, RATE_LIMIT_CLASS_NAMES, type RateLimitClass } from '@trawl/contract';
import type { AdminDeps } from '../deps.ts';
import { requireTeam, teamIdInput } from '../inputs.ts';
import { adminProcedure, router } from '../trpc.ts';

type TeamLimits = Record<RateLimitClass, { per_minute: number; source: 'override' | 'default' }>;

/** limits.set / get: a team's own rate limit per route class over the configured defaults. */
export function limitsArea({ store, rateLimitDefaults }: AdminDeps) {
  /** Every class's limit for a team: its override, else the configured default (0 = unlimited). */
  const limitsOf = async (team_id: string) => {
    const overrides = await store.getRateLimits(team_id);
    const limits = {} as TeamLimits;
    for (const c of RATE_LIMIT_CLASS_NAMES) {
      const o = overrides[c];
      limits[c] = o === undefined ? { per_minute: rateLimitDefaults[c], source: 'default' } : { per_minute: o, source: 'override' };
    }
    return { team_id, limits };
  };
  return router({
    /** Requests in any 60 seconds for one class: 0 = unlimited, null = back to the default. */
    set: adminProcedure
      .meta({
        description: "Sets the team's own rate limit of one route class: requests in any 60 seconds, 0 = unlimited, null = back to the default.",
        returns: 'As `limits.get`.',
      })
      .input(
        z.strictObject({
          team_id: teamIdInput,
          route_class: z.enum(RATE_LIMIT_CLASS_NAMES),
          per_minute: z.int().min(0).max(MAX_RATE_LIMIT_PER_MINUTE).nullable(),
        }),
      )
      .mutation(async ({ input }) => {
        await requireTeam(store, input.team_id);
        await store.setRateLimit(input.team_id, input.route_class, input.per_minute);
        return limitsOf(input.team_id);
      }),
    get: adminProcedure
      .meta({
        description: "The team's rate limit of every route class, with `source: override | default`.",
        returns: '`{team_id, limits}`.',
      })
      .input(z.strictObject({ team_id: teamIdInput })).query(async ({ input }) => {
      await requireTeam(store, input.team_id);
      return limitsOf(input.team_id);
    }),
  });
}
