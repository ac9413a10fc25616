import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openKv } from '../src/index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// e2e: it starts a child process holding the directory (kv.test.ts covers the lock within one process).
describe('data directory lock across processes', () => {
  it('a directory held by another live process is refused, naming it; a dead holder’s lock is taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-kv-'));
    dirs.push(dir);
    const holder = spawn(process.execPath, ['--import', 'tsx', '-e', `
      const { openKv } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
      openKv({ dir: ${JSON.stringify(dir)} }); console.log('held'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout!.on('data', (b: Buffer) => b.toString().includes('held') && resolve()));
    expect(() => openKv({ dir })).toThrow(new RegExp(`in use by process ${holder.pid}`));
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('close', r));
    // Killed: its lock is stale and taken over; so is a lock naming a pid that does not exist.
    await openKv({ dir }).close();
    writeFileSync(join(dir, 'trawl.lock'), '999999999');
    const kv = openKv({ dir });
    expect(kv.transact((tx) => tx.has('nothing'))).toBe(false);
    await kv.close();
  });
});
