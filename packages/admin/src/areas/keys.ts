import { z } from 'zod';
import { KEY_SCOPES } from '@trawl/store';
import type { AdminDeps } from '../deps.ts';
import { keyIdInput, requireTeam, teamIdInput } from '../inputs.ts';
import { adminError, adminProcedure, router } from '../trpc.ts';

const keyRef = z.strictObject({ team_id: teamIdInput, key_id: keyIdInput });

/** keys.create / list / revoke / rotate. A secret is answered once, when made; the store keeps only its hash. */
export function keysArea({ store }: AdminDeps) {
  const requireKey = async (teamId: string, keyId: string) => {
    await requireTeam(store, teamId);
    const key = await store.getApiKey(teamId, keyId);
    if (!key) throw adminError('NOT_FOUND', 'no such key in this team');
    return key;
  };
  return router({
    create: adminProcedure
      .meta({
        description: 'Creates an API key for the team (every scope unless `scopes` says otherwise). The secret is answered this once; the store keeps only its hash.',
        returns: '`{key, secret}`.',
      })
      .input(
        z.strictObject({
          team_id: teamIdInput,
          label: z.string().min(1).max(100),
          scopes: z.array(z.enum(KEY_SCOPES)).min(1).default([...KEY_SCOPES]),
        }),
      )
      .mutation(async ({ input }) => {
        await requireTeam(store, input.team_id);
        return store.createApiKey(input.team_id, { label: input.label, scopes: [...new Set(input.scopes)] });
      }),
    /** The team's keys, revoked ones too, oldest first: never a secret or its hash. */
    list: adminProcedure
      .meta({
        description: "The team's keys, revoked ones included, oldest first: never a secret or its hash.",
        returns: '`{keys}`.',
      })
      .input(z.strictObject({ team_id: teamIdInput })).query(async ({ input }) => {
      await requireTeam(store, input.team_id);
      const keys = await store.listApiKeys(input.team_id);
      return { keys: keys.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)) };
    }),
    /** `revoked` is false when the key was already revoked (the call changes nothing). */
    revoke: adminProcedure
      .meta({
        description: 'Revokes a key: refused from the next request on. `revoked: false` when it already was.',
        returns: '`{revoked, key}`.',
      })
      .input(keyRef).mutation(async ({ input }) => {
      await requireKey(input.team_id, input.key_id);
      const revoked = await store.revokeApiKey(input.team_id, input.key_id);
      return { revoked, key: await requireKey(input.team_id, input.key_id) };
    }),
    /** A new secret for the same team, label and scopes; the old key is revoked at once. */
    rotate: adminProcedure
      .meta({
        description: 'A new key with the same label and scopes; the old one is revoked at once (CONFLICT if it already was).',
        returns: '`{key, secret, replaced_key_id}`: the new secret is answered this once.',
      })
      .input(keyRef).mutation(async ({ input }) => {
      const old = await requireKey(input.team_id, input.key_id);
      if (old.revoked_at) throw adminError('CONFLICT', 'the key is revoked');
      const next = await store.rotateApiKey(input.team_id, input.key_id);
      if (!next) throw adminError('CONFLICT', 'the key was revoked or rotated meanwhile');
      return { ...next, replaced_key_id: old.id };
    }),
  });
}
