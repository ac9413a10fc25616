import { Packr } from 'msgpackr';
import { MAX_KEY_BYTES, type Kv, type KvSpace, type KvTx, type PutOptions, type RangeOptions } from './kv.ts';
import { keyOfOrder, orderKey, prefixEnd, SortedKeys } from './sorted-keys.ts';

/**
 * The Kv in the process's memory (TRAWL_DATA_DIR=:memory:), with the rules of lmdb-kv.ts: the same value encoding,
 * key order, expiry, sweeps and their counts (test/kv-differential.test.ts compares the two operation by operation).
 * The only module importing msgpackr, the encoder lmdb-js itself uses, with the options lmdb-js gives it: a value
 * read is a decoded copy, as from LMDB, so a caller mutating it changes nothing stored, and Buffers, Dates and
 * undefined come back as LMDB returns them. Measured on this project's 2-core machine, msgpackr (put + get) against
 * structuredClone (one clone each way): a ~40 KB crawl item of ASCII text 14-20 µs against 8-14, of accented text
 * 55-80 against 13-24; a small record 1.6-2.6 against 2.9-5.4. structuredClone is faster on large items, but
 * msgpackr keeps LMDB's value types (structuredClone turns a Buffer into a Uint8Array), gives the exact bytes held
 * for TRAWL_DATA_MAX_BYTES without walking each value, and holds values as flat buffers the garbage collector does
 * not trace (a crawl of 2,000 items is 2,000 buffers, not their object graphs).
 */
export const MEMORY_DIR = ':memory:';

const packr = new Packr({ copyBuffers: true });
/**
 * A copy of exactly the encoded bytes: msgpackr returns a view into a shared slab (8 KiB, or larger after a large
 * value), and a small record kept as such a view would keep a whole freed crawl item's slab alive.
 */
const encode = (value: unknown) => Buffer.from(packr.pack(value));

/** The stored form: encoded value, expiry (0: never) as LMDB stores [expiresAt, value], and the key's bytes. */
interface Entry {
  v: Buffer;
  at: number;
  kb: number;
}

/** What one entry's expiry takes (LMDB stores it beside the value). */
const EXPIRY_BYTES = 8;
/** An index entry's time and separator ahead of its key. */
const TIMED_BYTES = 16;

export interface MemoryKvOptions {
  /** The clock expiry is judged by (tests inject one). */
  now?: () => number;
}

/** Expiry and prefix index entries, ordered as lmdb-kv.ts orders its own: by time, then key (as an orderKey). */
const timed = (at: number, key: string) => `${String(at).padStart(15, '0')}\u0000${orderKey(key)}`;
const keyOfTimed = (entry: string) => keyOfOrder(entry.slice(TIMED_BYTES));
const atOfTimed = (entry: string) => Number(entry.slice(0, 15));

/** The key's bytes, once it is known to be a key (lmdb-kv.ts refuses the same). */
function checkKey(key: string): number {
  if (key.startsWith('\u0000')) throw new Error('kv keys may not start with NUL');
  const bytes = Buffer.byteLength(key);
  if (bytes > MAX_KEY_BYTES) throw new Error(`kv key longer than ${MAX_KEY_BYTES} bytes`);
  return bytes;
}

/** Undo records, four slots each in one flat array (no closure per write): what changed and what it was. */
const VALUE = 0;
const MARK = 1;
const PREFIX = 2;

export function openMemoryKv(opts: MemoryKvOptions = {}): Kv {
  const now = opts.now ?? Date.now;
  const values = new Map<string, Entry>();
  /** Every key, as its orderKey. */
  const keys = new SortedKeys();
  const expiries = new SortedKeys();
  const prefixes = new SortedKeys();
  const prefixAt = new Map<string, number>();
  let bytes = 0;
  let closed = false;
  /** Inside `transact`: the undo records of its writes so far, newest last. */
  let undo: unknown[] | null = null;

  const placeValue = (key: string, e: Entry | undefined) => {
    const prev = values.get(key);
    if (prev) bytes -= prev.kb + prev.v.length + EXPIRY_BYTES;
    if (e) {
      values.set(key, e);
      if (!prev) keys.add(orderKey(key));
      bytes += e.kb + e.v.length + EXPIRY_BYTES;
    } else if (prev) {
      values.delete(key);
      keys.delete(orderKey(key));
    }
  };
  const setValue = (key: string, e: Entry | undefined) => {
    undo?.push(VALUE, key, values.get(key), null);
    placeValue(key, e);
  };
  const placeMark = (set: SortedKeys, entry: string, on: boolean) => {
    const changed = on ? set.add(entry) : set.delete(entry);
    if (changed) bytes += (on ? 1 : -1) * Buffer.byteLength(entry);
    return changed;
  };
  const mark = (set: SortedKeys, entry: string, on: boolean) => {
    if (placeMark(set, entry, on)) undo?.push(MARK, set, entry, on);
  };
  const setPrefixAt = (prefix: string, at: number | undefined) => {
    undo?.push(PREFIX, prefix, prefixAt.get(prefix), null);
    if (at === undefined) prefixAt.delete(prefix);
    else prefixAt.set(prefix, at);
  };
  /** Undoes the records from `from` on, newest first. */
  const rollback = (log: unknown[], from: number) => {
    for (let i = log.length - 4; i >= from; i -= 4) {
      const [op, a, b, c] = [log[i], log[i + 1], log[i + 2], log[i + 3]];
      if (op === VALUE) placeValue(a as string, b as Entry | undefined);
      else if (op === MARK) placeMark(a as SortedKeys, b as string, !c);
      else if (b === undefined) prefixAt.delete(a as string);
      else prefixAt.set(a as string, b as number);
    }
    log.length = from;
  };

  const live = (e: Entry | undefined, t: number): e is Entry => e !== undefined && (e.at === 0 || e.at > t);

  const tx: KvTx = {
    get<T>(key: string) {
      const e = values.get(key);
      return live(e, now()) ? (packr.unpack(e.v) as T) : undefined;
    },
    has(key) {
      return live(values.get(key), now());
    },
    put(key, value, o?: PutOptions) {
      const kb = checkKey(key);
      const v = encode(value);
      const old = values.get(key);
      const at = o?.expiresAt ?? 0;
      if (old && old.at !== 0 && old.at !== at) mark(expiries, timed(old.at, key), false);
      if (at !== 0 && (!old || old.at !== at)) mark(expiries, timed(at, key), true);
      setValue(key, { v, at, kb });
    },
    del(key) {
      const old = values.get(key);
      if (old === undefined) return false;
      if (old.at !== 0) mark(expiries, timed(old.at, key), false);
      setValue(key, undefined);
      return live(old, now());
    },
    expiresAt(key) {
      const e = values.get(key);
      return live(e, now()) && e.at !== 0 ? e.at : null;
    },
    expire(key, at) {
      const e = values.get(key);
      if (!live(e, now())) return false;
      const next = at ?? 0;
      if (e.at !== 0 && e.at !== next) mark(expiries, timed(e.at, key), false);
      if (next !== 0 && e.at !== next) mark(expiries, timed(next, key), true);
      setValue(key, { ...e, at: next });
      return true;
    },
    expirePrefix(prefix, at) {
      // The empty prefix is every key: a slip, never a crawl's or a stream's keys.
      if (prefix === '') throw new Error('kv expirePrefix: empty prefix');
      checkKey(prefix);
      const old = prefixAt.get(prefix);
      if (old !== undefined) mark(prefixes, timed(old, prefix), false);
      if (at === null) {
        if (old !== undefined) setPrefixAt(prefix, undefined);
        return;
      }
      setPrefixAt(prefix, at);
      mark(prefixes, timed(at, prefix), true);
    },
    *range<T>(o: RangeOptions) {
      // Bounds as orderKeys: from the later of start and prefix, to the earlier of end and the prefix's end.
      const prefix = o.prefix === undefined ? undefined : orderKey(o.prefix);
      const start = o.start === undefined ? prefix : prefix === undefined || orderKey(o.start) > prefix ? orderKey(o.start) : prefix;
      const pastPrefix = prefix === undefined ? undefined : prefixEnd(prefix);
      const end = o.end === undefined ? pastPrefix : pastPrefix === undefined || orderKey(o.end) < pastPrefix ? orderKey(o.end) : pastPrefix;
      const t = now();
      let n = 0;
      // Each step seeks from the key it last yielded, so writes made between steps (the caller's own) are seen as
      // they are, never skipped over or repeated.
      let ord = o.reverse ? keys.floor(end) : start === undefined ? keys.ceiling('') : keys.ceiling(start);
      while (ord !== undefined && (o.reverse ? start === undefined || ord >= start : end === undefined || ord < end)) {
        const key = keyOfOrder(ord);
        const e = values.get(key);
        if (live(e, t)) {
          yield { key, value: packr.unpack(e.v) as T };
          if (o.limit !== undefined && ++n >= o.limit) return;
        }
        ord = o.reverse ? keys.floor(ord) : keys.ceiling(ord, true);
      }
    },
  };

  /** As lmdb-kv.ts sweepPrefixes: keys under due prefixes, oldest schedule first, at most 16 schedules a sweep. */
  function sweepPrefixes(t: number, max: number): number {
    let n = 0;
    const due: string[] = [];
    for (let e = prefixes.ceiling(''); e !== undefined && due.length < 16 && atOfTimed(e) <= t; e = prefixes.ceiling(e, true)) due.push(e);
    for (const entry of due) {
      if (n >= max) break;
      const prefix = orderKey(keyOfTimed(entry));
      const room = max - n;
      const doomed: string[] = [];
      for (let k = keys.ceiling(prefix); k !== undefined && k.startsWith(prefix) && doomed.length < room; k = keys.ceiling(k, true)) doomed.push(k);
      // Values only: a key's own expiry entry stays, for its own sweep to count later (as in LMDB).
      for (const k of doomed) setValue(keyOfOrder(k), undefined);
      n += doomed.length;
      if (doomed.length < room) {
        mark(prefixes, entry, false);
        setPrefixAt(keyOfTimed(entry), undefined);
      }
    }
    return n;
  }

  const assertOpen = () => {
    if (closed) throw new Error('kv is closed');
  };
  let transactions = 0;
  return {
    dir: MEMORY_DIR,
    get transactions() {
      return transactions;
    },
    transact(fn) {
      assertOpen();
      transactions++;
      const outer = undo === null;
      const log = (undo ??= []);
      const from = log.length;
      try {
        return fn(tx);
      } catch (err) {
        // Undone down to where this (possibly nested) transaction began.
        rollback(log, from);
        throw err;
      } finally {
        if (outer) undo = null;
      }
    },
    sweepExpired(max) {
      assertOpen();
      const t = now();
      const due: string[] = [];
      for (let e = expiries.ceiling(''); e !== undefined && due.length < max && atOfTimed(e) <= t; e = expiries.ceiling(e, true)) due.push(e);
      let n = 0;
      for (const entry of due) {
        const key = keyOfTimed(entry);
        mark(expiries, entry, false);
        if (values.get(key)?.at === atOfTimed(entry)) setValue(key, undefined);
        n++;
      }
      return n < max ? n + sweepPrefixes(t, max - n) : n;
    },
    /** Bytes held: keys (UTF-8) and encoded values, with each entry's expiry and each index entry; no file. */
    space: (): KvSpace => ({ usedBytes: bytes, fileBytes: 0 }),
    async close() {
      closed = true;
      values.clear();
      keys.clear();
      expiries.clear();
      prefixes.clear();
      prefixAt.clear();
      bytes = 0;
    },
  };
}
