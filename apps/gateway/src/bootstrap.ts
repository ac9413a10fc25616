import { timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrawlConfig } from '@trawl/config';
import { KEY_SCOPES, type ApiKeyRecord, type Store } from '@trawl/store';

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
  // Embedded mode (memory or disk) generates a development key; a shared Redis store never does.
  if (!configured && store.kind === 'redis') return null;
  let team = await store.findTeamByName('default');
  if (!team) {
    team = await store.createTeam('default');
    // The grant is a ledger entry recorded once per (run, reason): two gateways bootstrapping at once end up with
    // one team (the name is claimed atomically) and this grant once, and a team that exists is never granted again.
    const grant = { team_id: team.id, run_id: team.id, units: -config.TRAWL_TEAM_CREDITS, reason: 'bootstrap_grant' };
    await store.charge({ ...grant, at: new Date().toISOString() }, false);
  }
  if (configured) {
    if (!(await store.findApiKey(configured))) {
      await store.createApiKey(team.id, { label: 'bootstrap', scopes: [...KEY_SCOPES], secret: configured });
    }
    return { teamId: team.id, generatedKey: null };
  }
  // On disk the key outlives the process: it is kept (owner-only) in the data directory and printed again at each
  // start, instead of one more key per restart.
  const keyFile = store.kind === 'disk' ? join(config.TRAWL_DATA_DIR, 'development-key') : null;
  if (keyFile) {
    const kept = readKeptKey(keyFile);
    if (kept && (await store.findApiKey(kept))) return { teamId: team.id, generatedKey: kept };
  }
  const { secret } = await store.createApiKey(team.id, { label: 'development', scopes: [...KEY_SCOPES] });
  if (keyFile) writeFileSync(keyFile, secret, { mode: 0o600 });
  return { teamId: team.id, generatedKey: secret };
}

function readKeptKey(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * Keeps the configured bootstrap team and key present while the gateway runs. A Redis without persistence comes
 * back from a restart empty: without this, every call would answer 401 until the gateway restarted. The
 * (idempotent) bootstrap runs again when the connection is ready after an outage, and when a request presents
 * exactly the configured bootstrap key and the store does not know it. Only the configured key is recovered;
 * a generated development key (embedded mode) lives in memory and cannot be lost this way.
 */
export class BootstrapKeeper {
  private running: Promise<void> | null = null;
  private readonly key: Buffer | null;

  constructor(
    private readonly store: Store,
    private readonly config: TrawlConfig,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.key = config.TRAWL_BOOTSTRAP_KEY ? Buffer.from(config.TRAWL_BOOTSTRAP_KEY) : null;
  }

  /** Re-runs the bootstrap in the background (e.g. on reconnection). Never rejects. */
  ensure(): Promise<void> {
    return this.run().catch((err: unknown) => this.onError(err));
  }

  /** One run at a time: the requests that find the key missing together share it (one key record, not many). */
  private run(): Promise<void> {
    if (!this.key) return Promise.resolve();
    this.running ??= bootstrapDefaultTeam(this.store, this.config)
      .then(() => undefined)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /**
   * The key record for `secret` after recreating the bootstrap key, when `secret` is exactly the configured
   * bootstrap key (compared in constant time); null for any other secret, which stays unknown. A failure of the
   * store is thrown (the caller answers 503), never turned into a 401.
   */
  async recover(secret: string): Promise<ApiKeyRecord | null> {
    if (!this.key) return null;
    const given = Buffer.from(secret);
    if (given.length !== this.key.length || !timingSafeEqual(given, this.key)) return null;
    await this.run();
    return this.store.findApiKey(secret);
  }
}
