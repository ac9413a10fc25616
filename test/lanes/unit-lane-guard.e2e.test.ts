import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The unit lane's guard (test/support/unit-lane-guard.ts) fails a unit-lane test that starts a process or listens,
 * whichever way it imports child_process: vitest's unit project, run on a fixture test file in a directory of its
 * own (`--root`, with this repository's node_modules), reports those tests failed with the rule, and lets worker
 * threads and plain code pass.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULE = 'unit lane: this test starts a process/server; name it *.e2e.test.ts';
const dir = mkdtempSync(join(tmpdir(), 'trawl-unit-lane-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURE = `
import childProcess, { exec, execFile, execFileSync, execSync, fork, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createTcpServer } from 'node:net';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { startHelper } from './helper.ts';

const named = { spawn, spawnSync, fork, exec, execSync, execFile, execFileSync } as Record<string, (cmd: string) => unknown>;
for (const [name, fn] of Object.entries(named)) it('named ' + name, () => void fn('true'));
it('default import', () => void childProcess.spawn('true'));
it('require', () => void createRequire(import.meta.url)('node:child_process').execFileSync('true'));
it('helper module', () => void startHelper());
it('http listen', async () => {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.close();
});
it('tcp listen', () => void createTcpServer().listen(0));
it('caught spawn', () => {
  try {
    spawn('true');
  } catch {
    // a helper that falls back
  }
});
it('worker thread', async () => {
  const worker = new Worker('require("node:worker_threads").parentPort.postMessage(42)', { eval: true });
  const [n] = await once(worker, 'message');
  await worker.terminate();
  expect(n).toBe(42);
});
it('plain code', () => expect(1 + 1).toBe(2));
`;
const HELPER = `
import { spawn } from 'node:child_process';
export const startHelper = () => spawn(process.execPath, ['-e', '']);
`;

interface Report {
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

function runUnitLane(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(ROOT, 'vitest.config.ts'), '--root', dir, '--project', 'unit',
        '--reporter=json', `--outputFile=${join(dir, 'report.json')}`],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('the unit lane', () => {
  it('fails every test that starts a process or listens, with the rule, and passes worker threads and plain code', async () => {
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'test/fixture.test.ts'), FIXTURE);
    writeFileSync(join(dir, 'test/helper.ts'), HELPER);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));

    const run = await runUnitLane();
    expect(run.code, run.output).not.toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const tests = report.testResults.flatMap((f) => f.assertionResults);
    const status = Object.fromEntries(tests.map((t) => [t.title, t.status]));
    const blocked = [
      ...['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'].map((n) => `named ${n}`),
      'default import', 'require', 'helper module', 'http listen', 'tcp listen', 'caught spawn',
    ];
    expect(status).toEqual({ ...Object.fromEntries(blocked.map((t) => [t, 'failed'])), 'worker thread': 'passed', 'plain code': 'passed' });
    for (const t of tests.filter((t) => t.status === 'failed')) expect(t.failureMessages.join('\n'), t.title).toContain(RULE);
  });
});
