import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./fixtures/fault-child.ts', import.meta.url));

/** Runs the fixture process until it exits; resolves with its exit code and output. */
function run(fault: 'rejection' | 'exception'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { PATH: process.env.PATH, FAULT: fault }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The JSON log lines on stdout (the fixture's own plain "still running" line is not one). */
function logLines(stdout: string): Record<string, any>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe('process-level fault handlers (runProcess)', () => {
  it('logs an unhandled rejection as one JSON line without URLs or tokens, and keeps running', async () => {
    const r = await run('rejection');
    expect(r.stdout).toContain('still running');
    expect(r.code).toBe(0);
    const lines = logLines(r.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, name: 'fault-child', msg: 'unhandled rejection', kind: 'unhandled_rejection', err: { name: 'TypeError' } });
    expect(lines[0].time).toEqual(expect.any(Number));
    expect(lines[0].err.message).toContain('could not load <url>');
    expect(r.stdout + r.stderr).not.toMatch(/secret\.example|user:pw|abc\.def/);
  }, 30_000);

  it('logs an uncaught exception and exits 1 at once', async () => {
    const r = await run('exception');
    expect(r.code).toBe(1);
    const lines = logLines(r.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 60, kind: 'uncaught_exception', err: { name: 'RangeError', message: 'state is broken at <url>' } });
    expect(r.stdout + r.stderr).not.toContain('10.0.0.1');
    // Exit code 1 is the handler's: the fixture's own fallback exit (after 3 s) is 0.
  }, 30_000);
});
