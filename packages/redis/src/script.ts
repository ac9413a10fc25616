import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isClusterConnection, type RedisConnection } from './client.ts';

/** `--- @include "<name>"` on a line of its own, as BullMQ writes it: `<name>.lua`, relative to the including file. */
const INCLUDE = /^--- @include "([^"]+)"[ \t]*$/gm;

/**
 * A script file's source with its includes inlined (nested ones too), each file at most once: Redis runs one
 * self-contained script, so Lua shared between scripts (e.g. a `lua/includes/` file) is joined in here, at load.
 */
export function readLuaSource(path: string, included = new Set<string>()): string {
  included.add(resolve(path));
  return readFileSync(path, 'utf8').replace(INCLUDE, (_line, name: string) => {
    const file = resolve(dirname(path), name.endsWith('.lua') ? name : `${name}.lua`);
    if (!existsSync(file)) throw new Error(`${basename(path)}: included "${name}" not found (${file})`);
    return included.has(file) ? '' : readLuaSource(file, included).trimEnd();
  });
}

/**
 * A Lua script file named `<name>-<nkeys>.lua`, its includes inlined (readLuaSource). Runs by EVALSHA and loads
 * itself on NOSCRIPT, so scripts survive a Redis restart or failover without a start-up step.
 */
export class LuaScript {
  readonly name: string;
  readonly numberOfKeys: number;
  private readonly source: string;
  /** SHA1 of the source as run (includes inlined): EVALSHA's name for it. */
  readonly sha: string;

  constructor(path: string) {
    const file = path.split('/').pop() ?? path;
    const m = /^(.+)-(\d+)\.lua$/.exec(file);
    if (!m) throw new Error(`Lua script file name must be <name>-<nkeys>.lua: ${file}`);
    this.name = m[1];
    this.numberOfKeys = Number(m[2]);
    this.source = readLuaSource(path);
    this.sha = createHash('sha1').update(this.source).digest('hex');
  }

  async run<T = unknown>(client: RedisConnection, keys: string[], args: (string | number | Buffer)[]): Promise<T> {
    if (keys.length !== this.numberOfKeys) {
      throw new Error(`${this.name}: expected ${this.numberOfKeys} keys, got ${keys.length}`);
    }
    const tail = [String(keys.length), ...keys, ...args.map((a) => (Buffer.isBuffer(a) ? a : String(a)))];
    // On a cluster the script runs on the node serving its first key (all its keys share that slot).
    const send = (args: (string | Buffer)[]) => (isClusterConnection(client) ? client.sendCommand(keys[0], false, args) : client.sendCommand(args));
    try {
      return (await send(['EVALSHA', this.sha, ...tail])) as T;
    } catch (err) {
      if (!String((err as Error).message).startsWith('NOSCRIPT')) throw err;
      return (await send(['EVAL', this.source, ...tail])) as T;
    }
  }
}

/** Loads every `*.lua` of a directory URL, keyed by script name. */
export function loadScripts(dir: URL, names: string[]): Record<string, LuaScript> {
  const out: Record<string, LuaScript> = {};
  for (const file of names) {
    const s = new LuaScript(new URL(file, dir).pathname);
    out[s.name] = s;
  }
  return out;
}
