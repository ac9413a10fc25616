import { z } from 'zod';
import type { Store, TeamRecord } from '@trawl/store';
import { adminError } from './trpc.ts';

/** Input pieces every area shares, so ids and pages are validated alike. */
export const teamIdInput = z.string().min(1).max(200);
export const keyIdInput = z.string().min(1).max(200);
export const teamNameInput = z.string().min(1).max(100);
/** One page of a list: `limit` items (1–200, default 50) after `cursor`, a `next_cursor` of the previous page. */
export const pageInput = {
  limit: z.int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(200).optional(),
};

/** The team, or NOT_FOUND: every procedure that names a team checks that it exists. */
export async function requireTeam(store: Store, teamId: string): Promise<TeamRecord> {
  const team = await store.getTeam(teamId);
  if (!team) throw adminError('NOT_FOUND', 'no such team');
  return team;
}
