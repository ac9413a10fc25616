import type { TrawlConfig } from '@trawl/config';
import { KEY_SCOPES, type Store } from '@trawl/store';

export interface Bootstrap {
  teamId: string;
  /** The key to print at start-up: set when it was generated now (never a configured secret). */
  generatedKey: string | null;
}

/**
 * Team `default` and its first key. With TRAWL_BOOTSTRAP_KEY that secret becomes the key (idempotent across
 * restarts and gateways); in embedded mode without it a development key is generated and printed.
 */
export async function bootstrapDefaultTeam(store: Store, config: TrawlConfig): Promise<Bootstrap | null> {
  const configured = config.TRAWL_BOOTSTRAP_KEY;
  if (!configured && store.kind !== 'memory') return null;
  let team = await store.findTeamByName('default');
  if (!team) {
    team = await store.createTeam('default');
    await store.grantCredits(team.id, config.TRAWL_TEAM_CREDITS);
  }
  if (configured) {
    if (!(await store.findApiKey(configured))) {
      await store.createApiKey(team.id, { label: 'bootstrap', scopes: [...KEY_SCOPES], secret: configured });
    }
    return { teamId: team.id, generatedKey: null };
  }
  const { secret } = await store.createApiKey(team.id, { label: 'development', scopes: [...KEY_SCOPES] });
  return { teamId: team.id, generatedKey: secret };
}
