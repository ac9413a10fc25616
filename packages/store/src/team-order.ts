import type { TeamRecord } from './types.ts';

/**
 * A team's place in the list of teams: its creation time, then its id. ISO times of one length sort as strings, so
 * both backends page by plain string order (Redis: one sorted set read BYLEX).
 */
export function teamPosition(team: Pick<TeamRecord, 'id' | 'created_at'>): string {
  return `${team.created_at} ${team.id}`;
}

/** The team id a position names. */
export function teamIdAt(position: string): string {
  return position.slice(position.indexOf(' ') + 1);
}
