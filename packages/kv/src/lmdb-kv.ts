import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database } from 'lmdb';
import { lockDataDir } from './dir-lock.ts';
import { MAX_KEY_BYTES, type Kv, type KvSpace, type KvTx, type PutOptions, type RangeOptions } from './kv.ts';

/**
 * The only module importing lmdb: our Kv on one LMDB environment in the data directory. Every value is stored as
 * [expiresAt (0: never), value]; an expiring key also has an entry in an expiry index (keys under RESERVED), which
 * sweepExpired walks in time order. Reads treat an expired key as absent, so expiry is exact whenever sweeps run.
 * Keys are stored as their UTF-8 bytes ('binary' key encoding): LMDB's own string encoding reads control
 * characters as type markers and NUL as an array separator, which would corrupt the expiry index's keys.
 */
const RESERVED = '\u0000';
const EXPIRY_INDEX = `${RESERVED}exp${RESERVED}`;
/** Prefixes scheduled for deletion, in time order (`expirePrefix`), and each one's time, to replace a schedule. */
const PREFIX_INDEX = `${RESERVED}pfx${RESERVED}`;
const PREFIX_AT = `${RESERVED}pat${RESERVED}`;
const DATA_FILE = 'trawl.mdb';
/**
 * LMDB's page size for a new data file (an existing file keeps its own). A crawl item (a page's Markdown and HTML,
 * ~40 KB) is an overflow value: on 4 KiB pages it needs ten free pages in a row, and once rewrites (expiry) and
 * deletions had fragmented the file, finding them made each write slower and slower (0.18 -> 0.42 ms a 40 KB value
 * over six rounds of writes and expiry rewrites; a third crawl in one process spent 28% of its main thread
 * committing). On 16 KiB pages it needs three, and writes stayed at 0.19-0.28 ms; small transactions cost the same.
 * The price: a value rounds up to whole pages (an item takes 48 KB, not 40). lmdb-js's LZ4 compression was tried
 * too: 3-4 times slower per write on page text.
 */
const PAGE_BYTES = 16 * 1024;

/**
 * Address space the data file is mapped into, reserved once at open. Left to itself, lmdb-js maps 128 KiB and maps
 * the file again each time it outgrows the map, keeping every old map for readers that may still be on it: a long
 * run had the file mapped 12 times, each map with its own resident pages, and VmRSS counted them all. Address
 * space only, not disk or memory: the file still grows as it is written (TRAWL_DATA_MAX_BYTES counts its pages in
 * use, unaffected), and one past this size is mapped again, once per doubling. 64 GiB fits even a 39-bit address
 * space (512 GiB).
 */
const MAP_BYTES = 64 * 2 ** 30;

/**
 * The map to reserve, or undefined to let LMDB grow it as before. Under an address-space limit (`ulimit -v`), a map
 * past it does not fail cleanly: lmdb-js crashes the process at open (SIGSEGV). Only Linux says there is no limit.
 */
function mapBytes(): number | undefined {
  let limits: string;
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
  return /^Max address space\s+unlimited\s/m.test(limits) ? MAP_BYTES : undefined;
}

type Stored = [number, unknown];
/** No UTF-8 string holds this byte: the end of every range. */
const TOP = Buffer.from([0xff]);
const enc = (key: string) => Buffer.from(key, 'utf8');
const dec = (key: Buffer) => key.toString('utf8');

export interface KvOptions {
  dir: string;
  /** The clock expiry is judged by (tests inject one). */
  now?: () => number;
  /**
   * false (default): a commit reaches the OS at once (it survives the process being killed) and the disk within
   * the OS's own flush; true: each commit waits for the disk (survives power loss too, much slower).
   */
  sync?: boolean;
}

/** The page counts of one B-tree in LMDB's stats (lmdb-js types getStats() as `{}`). */
interface TreePages {
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
}
/** The main database's tree, the page size, and the tree of LMDB's own free-page list. */
interface LmdbStats extends TreePages {
  pageSize: number;
  free: TreePages;
}
/** LMDB's two meta pages at the start of the file. */
const META_PAGES = 2;
const treePages = (t: TreePages) => t.treeBranchPageCount + t.treeLeafPageCount + t.overflowPages;

/**
 * Pages in use, not the file: LMDB never shrinks its file, but reuses freed pages, so the pages reachable from the
 * trees are what the stored data takes (and what deleting or expiring keys gives back).
 */
function spaceOf(db: Database<Stored, Buffer>, file: string): KvSpace {
  const s = db.getStats() as LmdbStats;
  return { usedBytes: (META_PAGES + treePages(s) + treePages(s.free)) * s.pageSize, fileBytes: statSync(file).size };
}

const indexKey = (at: number, key: string) => `${EXPIRY_INDEX}${String(at).padStart(15, '0')}${RESERVED}${key}`;
const prefixIndexKey = (at: number, prefix: string) => `${PREFIX_INDEX}${String(at).padStart(15, '0')}${RESERVED}${prefix}`;

function checkKey(key: string): void {
  if (key.startsWith(RESERVED)) throw new Error('kv keys may not start with NUL');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new Error(`kv key longer than ${MAX_KEY_BYTES} bytes`);
}

export function openKv(opts: KvOptions): Kv {
  mkdirSync(opts.dir, { recursive: true });
  const release = lockDataDir(opts.dir);
  let db: Database<Stored, Buffer>;
  try {
    const mapSize = mapBytes();
    db = open<Stored, Buffer>({
      path: join(opts.dir, DATA_FILE),
      noSync: !opts.sync,
      compression: false,
      pageSize: PAGE_BYTES,
      keyEncoding: 'binary',
      ...(mapSize === undefined ? {} : { mapSize }),
    });
  } catch (err) {
    release();
    throw err;
  }
  const now = opts.now ?? Date.now;

  const live = (s: Stored | undefined, t: number): s is Stored => s !== undefined && (s[0] === 0 || s[0] > t);

  const tx: KvTx = {
    get<T>(key: string) {
      const s = db.get(enc(key));
      return live(s, now()) ? (s[1] as T) : undefined;
    },
    has(key) {
      return live(db.get(enc(key)), now());
    },
    put(key, value, o?: PutOptions) {
      checkKey(key);
      const old = db.get(enc(key));
      const at = o?.expiresAt ?? 0;
      if (old && old[0] !== 0 && old[0] !== at) db.removeSync(enc(indexKey(old[0], key)));
      if (at !== 0 && (!old || old[0] !== at)) db.putSync(enc(indexKey(at, key)), [0, null]);
      db.putSync(enc(key), [at, value]);
    },
    del(key) {
      const old = db.get(enc(key));
      if (old === undefined) return false;
      if (old[0] !== 0) db.removeSync(enc(indexKey(old[0], key)));
      db.removeSync(enc(key));
      return live(old, now());
    },
    expiresAt(key) {
      const s = db.get(enc(key));
      return live(s, now()) && s[0] !== 0 ? s[0] : null;
    },
    expire(key, at) {
      const s = db.get(enc(key));
      if (!live(s, now())) return false;
      tx.put(key, s[1], at === null ? undefined : { expiresAt: at });
      return true;
    },
    expirePrefix(prefix, at) {
      // The empty prefix is every key: a slip, never a crawl's or a stream's keys.
      if (prefix === '') throw new Error('kv expirePrefix: empty prefix');
      checkKey(prefix);
      const atKey = enc(PREFIX_AT + prefix);
      const old = db.get(atKey);
      if (old) db.removeSync(enc(prefixIndexKey(old[1] as number, prefix)));
      if (at === null) {
        if (old) db.removeSync(atKey);
        return;
      }
      db.putSync(atKey, [0, at]);
      db.putSync(enc(prefixIndexKey(at, prefix)), [0, null]);
    },
    *range<T>(o: RangeOptions) {
      let start = o.start ?? o.prefix ?? '\u0001';
      const end = o.end !== undefined ? enc(o.end) : o.prefix !== undefined ? Buffer.concat([enc(o.prefix), TOP]) : TOP;
      if (start < '\u0001') start = '\u0001';
      // Compared as bytes, the keys' order (JS's `<` orders a character past U+FFFF before U+FFFD).
      if (o.prefix !== undefined && Buffer.compare(enc(start), enc(o.prefix)) < 0) start = o.prefix;
      const t = now();
      let n = 0;
      // LMDB's reverse range includes its first bound and excludes its last, the opposite of ours: walk down to
      // the reserved keys and stop below `start` instead.
      const from = enc(start);
      const entries = o.reverse ? db.getRange({ start: end, end: enc(RESERVED), reverse: true }) : db.getRange({ start: from, end });
      for (const { key: raw, value } of entries) {
        if (o.reverse && raw.equals(end)) continue;
        if (o.reverse && Buffer.compare(raw, from) < 0) return;
        const key = dec(raw);
        if (!live(value, t)) continue;
        if (o.prefix !== undefined && !key.startsWith(o.prefix)) continue;
        yield { key, value: value[1] as T };
        if (o.limit !== undefined && ++n >= o.limit) return;
      }
    },
  };

  /**
   * Deletes up to `max` keys under prefixes whose time has passed, oldest schedule first; a prefix found empty
   * leaves the schedule. Keys only, values unread: a key that also had its own expiry leaves an index entry that
   * its own sweep drops later (its target is gone).
   */
  function sweepPrefixes(t: number, max: number): number {
    let n = 0;
    const due = Array.from(db.getKeys({ start: enc(PREFIX_INDEX), end: enc(prefixIndexKey(t + 1, '')), limit: 16 }), (k) => dec(k as Buffer));
    for (const entry of due) {
      if (n >= max) break;
      const prefix = entry.slice(PREFIX_INDEX.length + 16);
      const room = max - n;
      const keys = Array.from(db.getKeys({ start: enc(prefix), end: Buffer.concat([enc(prefix), TOP]), limit: room }), (k) => k as Buffer);
      for (const key of keys) db.removeSync(key);
      n += keys.length;
      if (keys.length < room) {
        db.removeSync(enc(entry));
        db.removeSync(enc(PREFIX_AT + prefix));
      }
    }
    return n;
  }

  let transactions = 0;
  return {
    dir: opts.dir,
    get transactions() {
      return transactions;
    },
    transact: (fn) => {
      transactions++;
      return db.transactionSync(() => fn(tx));
    },
    sweepExpired(max) {
      const t = now();
      return db.transactionSync(() => {
        // Collected before deleting: removing entries under a live LMDB cursor skips some of those after them.
        const due: string[] = [];
        for (const { key } of db.getRange({ start: enc(EXPIRY_INDEX), end: enc(indexKey(t + 1, '')), limit: max })) due.push(dec(key));
        let n = 0;
        for (const key of due) {
          const target = key.slice(EXPIRY_INDEX.length + 16);
          const at = Number(key.slice(EXPIRY_INDEX.length, EXPIRY_INDEX.length + 15));
          db.removeSync(enc(key));
          const s = db.get(enc(target));
          if (s && s[0] === at) db.removeSync(enc(target));
          n++;
        }
        return n < max ? n + sweepPrefixes(t, max - n) : n;
      });
    },
    space: () => spaceOf(db, join(opts.dir, DATA_FILE)),
    async close() {
      await db.close();
      release();
    },
  };
}
