import { readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { keySlot, LuaScript, type RedisClusterConnection } from '@trawl/redis';

/** What the scripts run through a cluster connection were given: script SHA -> the slots of each run's keys. */
export type ScriptRuns = Map<string, number[][]>;

/**
 * Records the keys of every script the connection runs (EVAL and EVALSHA go through sendCommand on a cluster),
 * so a test can check, by computing their slots, that each script's keys share one slot.
 */
export function recordScriptRuns(conn: RedisClusterConnection): ScriptRuns {
  const runs: ScriptRuns = new Map();
  const send = conn.sendCommand.bind(conn);
  conn.sendCommand = ((firstKey, isReadonly, args, options) => {
    const [cmd, shaOrSource, n] = args.map(String);
    if (cmd === 'EVALSHA' || cmd === 'EVAL') {
      const keys = args.slice(3, 3 + Number(n));
      const sha = cmd === 'EVALSHA' ? shaOrSource : `source:${shaOrSource.slice(0, 40)}`;
      runs.set(sha, [...(runs.get(sha) ?? []), keys.map((k) => keySlot(k))]);
    }
    return send(firstKey, isReadonly, args, options);
  }) as typeof conn.sendCommand;
  return runs;
}

/** Every `<name>-<n>.lua` script in the given `lua/` directories (includes excluded). */
export function scriptsIn(dirs: URL[]): LuaScript[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /-\d+\.lua$/.test(f))
      .map((f) => new LuaScript(new URL(f, dir).pathname)),
  );
}

/** Each script ran at least once, and every run's keys were in one slot. */
export function expectEachScriptRanInOneSlot(runs: ScriptRuns, scripts: LuaScript[]): void {
  for (const s of scripts) {
    const seen = runs.get(s.sha) ?? [];
    expect(seen.length, `${s.name}: never ran on the cluster`).toBeGreaterThan(0);
    for (const slots of seen) expect(new Set(slots).size, `${s.name}: keys in slots ${slots.join(', ')}`).toBe(1);
  }
}
