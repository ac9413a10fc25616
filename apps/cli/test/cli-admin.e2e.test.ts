import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '@trawl/test-support/admin-client.ts';
import { freePort } from '@trawl/test-support/free-port.ts';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { adminInput } from '../src/commands/admin.ts';
import { CONTROL_CHARS, runCli } from './run-cli.ts';

/** `trawl admin <area.verb> field=value…` against a real gateway: answers as JSON, errors as one line and exit codes. */
let gw: TestGateway;
let env: Record<string, string>;
beforeAll(async () => {
  gw = await startTestGateway({ LOG_LEVEL: 'warn', TRAWL_ADMIN_TOKEN: TEST_ADMIN_TOKEN, TRAWL_WORKERS: '0' });
  env = { TRAWL_BASE: gw.url, TRAWL_ADMIN_TOKEN: TEST_ADMIN_TOKEN };
});
afterAll(async () => {
  await gw?.close();
});

const json = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(CONTROL_CHARS);
  return JSON.parse(r.stdout);
};

describe('trawl admin', () => {
  it('field=value arguments: JSON values as values, anything else as text', () => {
    expect(adminInput(['team_id=team_1', 'monthly=50', 'per_minute=null', 'disabled=false', 'scopes=["fetch"]', 'name=acme corp'])).toEqual({
      team_id: 'team_1',
      monthly: 50,
      per_minute: null,
      disabled: false,
      scopes: ['fetch'],
      name: 'acme corp',
    });
    expect(() => adminInput(['no-equals'])).toThrow(/field=value/);
  });

  it('creates a team and a key, sets and reads a quota, lists workers, through the admin API', async () => {
    const team = json(await runCli(['admin', 'teams.create', 'name=cli-team'], env));
    expect(team.id).toMatch(/^team_/);
    const key = json(await runCli(['admin', 'keys.create', `team_id=${team.id}`, 'label=ci', 'scopes=["fetch"]'], env));
    expect(key.secret).toEqual(expect.any(String));
    const quotas = json(await runCli(['admin', 'quotas.set', `team_id=${team.id}`, 'resource=scrape', 'monthly=7'], env));
    expect(quotas.quotas.scrape).toEqual({ monthly: 7, used: 0 });
    expect(json(await runCli(['admin', 'quotas.get', `team_id=${team.id}`], env)).quotas.scrape.monthly).toBe(7);
    // The token as a flag instead of the environment.
    const flagged = await runCli(['admin', 'workers.list', '--admin-token', TEST_ADMIN_TOKEN], { TRAWL_BASE: gw.url });
    expect(json(flagged)).toEqual({ workers: [] });
  });

  it('errors: a bad input, an unknown team, a wrong token, no token, nothing listening, an unknown procedure', async () => {
    const bad = await runCli(['admin', 'quotas.set', 'team_id=team_x', 'resource=pages', 'monthly=1'], env);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(bad.stderr).toMatch(/^error: BAD_REQUEST: /);
    const missing = await runCli(['admin', 'teams.get', 'team_id=team_nobody'], env);
    expect([missing.code, missing.stderr]).toEqual([1, 'error: NOT_FOUND: no such team\n']);
    const wrong = await runCli(['admin', 'teams.list'], { ...env, TRAWL_ADMIN_TOKEN: 'wrong-token-0123456789' });
    expect([wrong.code, wrong.stderr]).toEqual([1, 'error: UNAUTHORIZED: admin token required\n']);
    const none = await runCli(['admin', 'teams.list'], { TRAWL_BASE: gw.url });
    expect([none.code, none.stderr]).toEqual([2, 'error: no admin token: pass --admin-token or set TRAWL_ADMIN_TOKEN\n']);
    const down = await runCli(['admin', 'teams.list'], { ...env, TRAWL_BASE: `http://127.0.0.1:${await freePort()}` });
    expect([down.code, down.stderr]).toEqual([4, 'error: the admin API could not be reached at --base\n']);
    const unknown = await runCli(['admin', 'teams.explode'], env);
    expect(unknown.code).toBe(2);
  });
});
