import { z } from 'zod';
import { newId } from '@trawl/store';
import type { AdminDeps } from '../deps.ts';
import { pageInput, requireTeam, teamIdInput } from '../inputs.ts';
import { adminProcedure, router } from '../trpc.ts';

/**
 * credits.grant / balance. A grant is a ledger entry of negative units (reason `admin_grant`), like the grants a
 * team gets when it is created, so the ledger explains the balance.
 */
export function creditsArea({ store, now }: AdminDeps) {
  return router({
    grant: adminProcedure
      .meta({
        description: 'Grants credits: a ledger entry `admin_grant` of negative units.',
        returns: '`{team_id, balance}`.',
      })
      .input(z.strictObject({ team_id: teamIdInput, units: z.int().min(1).max(1_000_000_000) }))
      .mutation(async ({ input }) => {
        await requireTeam(store, input.team_id);
        const entry = { team_id: input.team_id, run_id: newId('grant'), units: -input.units, reason: 'admin_grant' };
        const { balance } = await store.charge({ ...entry, at: new Date(now()).toISOString() }, false);
        return { team_id: input.team_id, balance };
      }),
    /** The balance and the ledger, newest entries first, a page at a time. */
    balance: adminProcedure
      .meta({
        description: 'The balance and the ledger, newest entries first (grants are negative units), a page at a time.',
        returns: '`{team_id, balance, entries, next_cursor}`.',
      })
      .input(z.strictObject({ team_id: teamIdInput, limit: pageInput.limit, cursor: z.string().regex(/^\d{1,15}$/).optional() }))
      .query(async ({ input }) => {
        await requireTeam(store, input.team_id);
        const before = input.cursor === undefined ? undefined : Number(input.cursor);
        const [balance, page] = await Promise.all([store.balance(input.team_id), store.ledgerPage(input.team_id, { limit: input.limit, before })]);
        return { team_id: input.team_id, balance, entries: page.entries, next_cursor: page.next_before === null ? null : String(page.next_before) };
      }),
  });
}
