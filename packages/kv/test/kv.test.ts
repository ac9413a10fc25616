import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, openKv, type Kv } from '../src/index.ts';

const dirs: string[] = [];
const opened: Kv[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'trawl-kv-'));
  dirs.push(d);
  return d;
}
function kvAt(dir: string, now?: () => number): Kv {
  const kv = openKv({ dir, now });
  opened.push(kv);
  return kv;
}
afterEach(async () => {
  for (const kv of opened.splice(0)) await kv.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('kv on LMDB', () => {
  it('puts, reads back structured values and buffers, deletes', () => {
    const kv = kvAt(tempDir());
    kv.transact((tx) => {
      tx.put('a', { n: 1, list: ['x'], none: null });
      tx.put('b', Buffer.from([1, 2, 3]));
    });
    expect(kv.transact((tx) => tx.get('a'))).toEqual({ n: 1, list: ['x'], none: null });
    expect(Buffer.from(kv.transact((tx) => tx.get<Uint8Array>('b'))!)).toEqual(Buffer.from([1, 2, 3]));
    expect(kv.transact((tx) => [tx.del('a'), tx.del('a'), tx.has('a')])).toEqual([true, false, false]);
  });

  it('a transaction that throws leaves nothing behind; reads inside see its own writes', () => {
    const kv = kvAt(tempDir());
    kv.transact((tx) => tx.put('n', 1));
    expect(() =>
      kv.transact((tx) => {
        tx.put('n', (tx.get<number>('n') ?? 0) + 1);
        expect(tx.get('n')).toBe(2);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(kv.transact((tx) => tx.get('n'))).toBe(1);
  });

  it('ranges: prefix, bounds (start included, end excluded), reverse, limit', () => {
    const kv = kvAt(tempDir());
    kv.transact((tx) => {
      for (const k of ['p:1', 'p:2', 'p:3', 'q:1', 'o:9']) tx.put(k, k);
    });
    const keys = (o: Parameters<Kv['transact']>[0] extends never ? never : object) =>
      kv.transact((tx) => [...tx.range(o)].map((e) => e.key));
    expect(keys({ prefix: 'p:' })).toEqual(['p:1', 'p:2', 'p:3']);
    expect(keys({ prefix: 'p:', reverse: true })).toEqual(['p:3', 'p:2', 'p:1']);
    expect(keys({ start: 'p:2', end: 'q:1' })).toEqual(['p:2', 'p:3']);
    expect(keys({ start: 'p:2', end: 'q:1', reverse: true })).toEqual(['p:3', 'p:2']);
    expect(keys({ prefix: 'p:', start: 'p:2', limit: 1 })).toEqual(['p:2']);
    expect(keys({ prefix: 'p:', reverse: true, limit: 2 })).toEqual(['p:3', 'p:2']);
    expect(keys({})).toEqual(['o:9', 'p:1', 'p:2', 'p:3', 'q:1']);
  });

  it('expiry: an expired key reads as absent and leaves ranges; a sweep deletes it; a new put without expiry keeps it', () => {
    let t = 1_000_000;
    const kv = kvAt(tempDir(), () => t);
    kv.transact((tx) => {
      tx.put('short', 1, { expiresAt: t + 10 });
      tx.put('long', 2, { expiresAt: t + 1000 });
      tx.put('kept', 3, { expiresAt: t + 10 });
      tx.put('kept', 4);
    });
    expect(kv.transact((tx) => tx.expiresAt('short'))).toBe(1_000_010);
    t += 10;
    expect(kv.transact((tx) => [tx.get('short'), tx.get('long'), tx.get('kept'), [...tx.range({})].map((e) => e.key)])).toEqual([
      undefined,
      2,
      4,
      ['kept', 'long'],
    ]);
    expect(kv.sweepExpired(100)).toBe(1);
    expect(kv.transact((tx) => tx.expire('long', t + 5))).toBe(true);
    t += 5;
    expect(kv.sweepExpired(100)).toBe(1);
    expect(kv.transact((tx) => [...tx.range({})].map((e) => e.key))).toEqual(['kept']);
  });

  it('a sweep deletes every key due, however many share one expiry, and only up to its max', () => {
    let t = 1_000_000;
    const kv = kvAt(tempDir(), () => t);
    const names = Array.from({ length: 40 }, (_, i) => `p:${String(i).padStart(2, '0')}:${'x'.repeat(i)}`);
    kv.transact((tx) => {
      for (const k of names) tx.put(k, 1);
      for (const k of names) tx.expire(k, t + 10);
      tx.put('later', 1, { expiresAt: t + 1000 });
    });
    t += 10;
    expect(kv.sweepExpired(15)).toBe(15);
    expect(kv.sweepExpired(100)).toBe(25);
    expect(kv.sweepExpired(100)).toBe(0);
    t += 1000;
    expect(kv.sweepExpired(100)).toBe(1);
  });

  it('expiry: sweeps expired keys of every length (long ones too), and only expired ones', () => {
    let t = 1_800_000_000_000;
    const kv = kvAt(tempDir(), () => t);
    const keys = [1, 20, 63, 64, 100, 1000].map((n) => 'k'.repeat(n));
    kv.transact((tx) => {
      for (const k of keys) tx.put(k, k.length, { expiresAt: t + k.length });
      tx.put('x'.repeat(900), 'kept', { expiresAt: t + 10_000 });
    });
    t += 1000;
    expect(kv.sweepExpired(100)).toBe(keys.length);
    expect(kv.sweepExpired(100)).toBe(0);
    expect(kv.transact((tx) => [...tx.range({})].map((e) => e.key.length))).toEqual([900]);
    t += 10_000;
    expect(kv.sweepExpired(100)).toBe(1);
  });

  it('prefix expiry: every key under the prefix, written before or after, is swept once due; reads and other keys are untouched', () => {
    let t = 1_000_000;
    const kv = kvAt(tempDir(), () => t);
    const all = () => kv.transact((tx) => [...tx.range({})].map((e) => e.key));
    kv.transact((tx) => {
      for (let i = 0; i < 30; i++) tx.put(`c:1:${String(i).padStart(2, '0')}`, 'x'.repeat(40_000));
      tx.put('c:1:own', 1, { expiresAt: t + 5 });
      tx.put('c:10', 'a neighbour that only shares characters');
      tx.put('c:2:a', 2);
      tx.expirePrefix('c:1:', t + 10);
    });
    kv.transact((tx) => tx.put('c:1:late', 3));
    // Rescheduling replaces the first schedule; a cancelled one never sweeps.
    kv.transact((tx) => tx.expirePrefix('c:1:', t + 20));
    kv.transact((tx) => tx.expirePrefix('c:2:', t + 10));
    kv.transact((tx) => tx.expirePrefix('c:2:', null));
    t += 10;
    expect(kv.sweepExpired(100)).toBe(1); // only c:1:own, by its own expiry
    // Until swept, the keys read as they were: the prefix's owner guards its reads with a key of its own.
    expect(kv.transact((tx) => tx.get('c:1:late'))).toBe(3);
    t += 10;
    expect(kv.sweepExpired(20)).toBe(20);
    expect(kv.sweepExpired(20)).toBe(11);
    expect(kv.sweepExpired(20)).toBe(0);
    expect(all()).toEqual(['c:10', 'c:2:a']);
    // The schedule went with its keys: new keys under the prefix stay.
    kv.transact((tx) => tx.put('c:1:new', 4));
    t += 1000;
    expect(kv.sweepExpired(100)).toBe(0);
    expect(all()).toEqual(['c:10', 'c:1:new', 'c:2:a']);
  });

  it('keeps its data across a close and reopen', async () => {
    const dir = tempDir();
    const kv = openKv({ dir });
    kv.transact((tx) => tx.put('k', 'v'));
    await kv.close();
    expect(kvAt(dir).transact((tx) => tx.get('k'))).toBe('v');
  });

  it('refuses long keys and reserved ones', () => {
    const kv = kvAt(tempDir());
    expect(() => kv.transact((tx) => tx.put('x'.repeat(1001), 1))).toThrow(/longer/);
    expect(() => kv.transact((tx) => tx.put('\u0000x', 1))).toThrow(/NUL/);
  });

  it('one process per directory: a second open here, or by another live process, is refused; a dead holder’s lock is taken over', async () => {
    const dir = tempDir();
    const kv = kvAt(dir);
    expect(() => openKv({ dir })).toThrow(DataDirLockedError);
    await kv.close();
    // A live process holding it.
    const holder = spawn(process.execPath, ['--import', 'tsx', '-e', `
      const { openKv } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
      openKv({ dir: ${JSON.stringify(dir)} }); console.log('held'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout!.on('data', (b: Buffer) => b.toString().includes('held') && resolve()));
    expect(() => openKv({ dir })).toThrow(new RegExp(`in use by process ${holder.pid}`));
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('close', r));
    // Killed: its lock is stale and taken over; so is a lock naming a pid that does not exist.
    await kvAt(dir).close();
    writeFileSync(join(dir, 'trawl.lock'), '999999999');
    expect(kvAt(dir).transact((tx) => tx.has('nothing'))).toBe(false);
  });
});
