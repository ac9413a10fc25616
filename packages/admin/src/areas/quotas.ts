import { z } from 'zod';
import { MAX_QUOTA_MONTHLY, QUOTA_RESOURCE_NAMES } from '@trawl/contract';
import { quotaMonth } from '@trawl/store';
import type { AdminDeps } from '../deps.ts';
import { requireTeam, teamIdInput } from '../inputs.ts';
import { adminProcedure, router } from '../trpc.ts';

/** quotas.set / get: a team's monthly limit per resource (null = unlimited) and its usage this UTC month. */
export function quotasArea({ store, now }: AdminDeps) {
  const quotasOf = async (team_id: string) => {
    const month = quotaMonth(now());
    return { team_id, month, quotas: await store.getQuotas(team_id, month) };
  };
  return router({
    /** 0 = nothing allowed, null = unlimited again; lowering below what was used refuses until the month turns. */
    set: adminProcedure
      .meta({
        description: "Sets the team's monthly quota of one resource: 0 = nothing allowed, null = unlimited. Lowering it below what was used refuses new requests until the month turns.",
        returns: 'As `quotas.get`.',
      })
      .input(
        z.strictObject({
          team_id: teamIdInput,
          resource: z.enum(QUOTA_RESOURCE_NAMES),
          monthly: z.int().min(0).max(MAX_QUOTA_MONTHLY).nullable(),
        }),
      )
      .mutation(async ({ input }) => {
        await requireTeam(store, input.team_id);
        await store.setQuota(input.team_id, input.resource, input.monthly);
        return quotasOf(input.team_id);
      }),
    get: adminProcedure
      .meta({
        description: "Every resource's monthly limit and usage this UTC month.",
        returns: '`{team_id, month, quotas}`.',
      })
      .input(z.strictObject({ team_id: teamIdInput })).query(async ({ input }) => {
      await requireTeam(store, input.team_id);
      return quotasOf(input.team_id);
    }),
  });
}
