import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useLmdbKvs } from '@trawl/test-support/backends.ts';

const lmdbKv = useLmdbKvs();

// e2e: it runs the sweeper in a child process (expiry-sweeper.test.ts holds the rest).
describe('expiry sweeper', () => {
  it('never keeps the process alive', async () => {
    // The child's directory: a Kv opened and closed here, so the helper removes it afterwards.
    const probe = lmdbKv();
    const dir = probe.dir;
    await probe.close();
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
      const { openKv, startExpirySweeper } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
      startExpirySweeper(openKv({ dir: ${JSON.stringify(dir)} }), { intervalMs: 3_600_000 });`], { stdio: 'inherit' });
    const exited = new Promise((r) => child.on('exit', r));
    const outcome = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
    child.kill('SIGKILL');
    expect(outcome).toBe(0);
  }, 30_000);
});
