import { z } from 'zod';
import type { AdminDeps } from '../deps.ts';
import { pageInput, requireTeam, teamIdInput, teamNameInput } from '../inputs.ts';
import { adminError, adminProcedure, router } from '../trpc.ts';

/**
 * teams.create / list / get / disable. A disabled team's API keys get 403 permission_denied on every /v1 route from
 * the next request on (the gateway reads the team with the key, no cache); its running crawls and trends jobs are
 * not stopped, and it can still be managed here (keys, credits, limits).
 */
export function teamsArea({ store, teamCredits, now }: AdminDeps) {
  return router({
    /** The team of that name, created (with TRAWL_TEAM_CREDITS) when there is none: safe to repeat. */
    create: adminProcedure
      .meta({
        description: 'Creates a team with TRAWL_TEAM_CREDITS credits, or answers the team of that name when there is one: safe to repeat.',
        returns: 'The team `{id, name, created_at, disabled_at}`.',
      })
      .input(z.strictObject({ name: teamNameInput })).mutation(async ({ input }) => {
      const existing = await store.findTeamByName(input.name);
      if (existing) return existing;
      const team = await store.createTeam(input.name);
      // A ledger entry recorded once per team (like the bootstrap grant): concurrent creations grant once.
      if (teamCredits > 0) {
        const at = new Date(now()).toISOString();
        await store.charge({ team_id: team.id, run_id: team.id, units: -teamCredits, reason: 'team_grant', at }, false);
      }
      return team;
    }),
    /** Every team, disabled ones included, oldest first. */
    list: adminProcedure
      .meta({
        description: 'Every team, disabled ones included, oldest first, a page at a time.',
        returns: '`{teams, next_cursor}`.',
      })
      .input(z.strictObject(pageInput).optional()).query(async ({ input }) => {
      const page = await store.listTeams({ limit: input?.limit ?? 50, after: input?.cursor });
      return { teams: page.teams, next_cursor: page.next_after };
    }),
    /** One team by id or by name. */
    get: adminProcedure
      .meta({
        description: 'One team, by `team_id` or by `name`.',
        returns: 'The team.',
      })
      .input(z.union([z.strictObject({ team_id: teamIdInput }), z.strictObject({ name: teamNameInput })]))
      .query(async ({ input }) => {
        if ('team_id' in input) return requireTeam(store, input.team_id);
        const team = await store.findTeamByName(input.name);
        if (!team) throw adminError('NOT_FOUND', 'no such team');
        return team;
      }),
    /** Disables a team (`disabled` defaults to true), or enables it again with `disabled: false`. */
    disable: adminProcedure
      .meta({
        description: 'Disables a team (its API keys get 403 from the next request on, on every gateway; running crawls and jobs finish), or enables it again with `disabled: false`.',
        returns: 'The team.',
      })
      .input(z.strictObject({ team_id: teamIdInput, disabled: z.boolean().default(true) }))
      .mutation(async ({ input }) => {
        const team = await store.setTeamDisabled(input.team_id, input.disabled);
        if (!team) throw adminError('NOT_FOUND', 'no such team');
        return team;
      }),
  });
}
