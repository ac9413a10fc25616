import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '@trawl/test-support/gateway.ts';
import { CONFIG, justifiedWarnings } from './redocly-config.ts';

/**
 * The public OpenAPI document, as served with and without TRAWL_ADMIN_TOKEN, linted by Redocly (@redocly/cli, run
 * as its command line: it has no JavaScript API) with the repository's redocly.yaml: every Redocly rule on, no
 * error, and warnings only from the rules that file lowers to a warning, each with its reason written above it.
 */
const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'trawl-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

async function lint(file: string): Promise<{ totals: { errors: number; warnings: number }; problems: Problem[] }> {
  // The exit code is 1 when there are errors; the JSON report says why either way.
  const run = promisify(execFile)(process.execPath, [CLI, 'lint', file, '--config', CONFIG, '--format', 'json', '--max-problems', '100000'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const { stdout } = await run.catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return JSON.parse(stdout);
}

describe('Redocly lint of the public OpenAPI document', () => {
  for (const admin of [false, true]) {
    it(`reports no error, and warnings only of the justified rules (TRAWL_ADMIN_TOKEN ${admin ? 'set' : 'unset'})`, async () => {
      const gw = await startTestGateway({
        LOG_LEVEL: 'warn',
        TRAWL_DATA_DIR: ':memory:',
        TRAWL_WORKERS: '0',
        ...(admin ? { TRAWL_ADMIN_TOKEN: 'admin-token-0123456789abcdef' } : {}),
      });
      const file = join(dir, `openapi-${admin ? 'admin' : 'plain'}.json`);
      try {
        writeFileSync(file, await (await fetch(`${gw.url}/api-docs/public-v1/openapi`)).text());
      } finally {
        await gw.close();
      }
      const report = await lint(file);
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
      const justified = justifiedWarnings();
      const unjustified = report.problems.filter((p) => !justified.has(p.ruleId)).map((p) => p.ruleId);
      expect([...new Set(unjustified)]).toEqual([]);
    });
  }
});
