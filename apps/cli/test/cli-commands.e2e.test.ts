import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTrendsSimulator, type TrendsSimulator } from '../../trends-simulator/src/simulator.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { freePort } from '@trawl/test-support/free-port.ts';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';
import { getTrendsJob } from '@trawl/test-support/trends-client.ts';
import { CONTROL_CHARS, ROOT, runCli } from './run-cli.ts';

/** `trawl fetch`, `trawl trends`, errors and help, against a real in-memory gateway and local sites. */
let gw: TestGateway;
let fixture: FixtureSite;
let site: CrawlSite;
let sim: TrendsSimulator;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startTrendsSimulator();
  [gw, fixture, site] = await Promise.all([
    startTestGateway({
      LOG_LEVEL: 'warn',
      TRAWL_TRENDS_BASE_URL: sim.url,
      TRAWL_TRENDS_RPM: '6000',
      TRAWL_TRENDS_BACKOFF_MS: '50',
      TRAWL_TRENDS_MAX_ATTEMPTS: '1',
      TRAWL_TRENDS_TIMEOUT_MS: '2000',
    }),
    startFixtureSite(),
    startCrawlSite(),
  ]);
  env = { TRAWL_BASE: gw.url, TRAWL_KEY: TEST_KEY };
});
afterAll(async () => {
  await gw?.close();
  await fixture?.close();
  await site?.close();
  await sim?.close();
});

async function apiFetch(url: string) {
  const res = await gw.call('POST', '/v1/fetch', { url });
  expect(res.status).toBe(200);
  return (await res.json()) as { run: { id: string }; result: { url: string; content: { markdown: string } } };
}

describe('trawl', () => {
  it('`npx trawl --help` in the repository lists every command, the environment and the exit codes', () => {
    const r = spawnSync('npx', ['trawl', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    for (const c of ['fetch [options] <url>', 'crawl [options] <urls...>', 'resume [options] <crawl_id>', 'trends [options] <keywords...>', 'TRAWL_BASE', 'TRAWL_KEY', '130 ']) {
      expect(r.stdout).toContain(c);
    }
  });

  it('fetch prints the page’s Markdown; --json prints the whole answer', async () => {
    const url = `${fixture.origin('site.test')}/article`;
    const expected = (await apiFetch(url)).result.content.markdown;
    expect(expected.length).toBeGreaterThan(200);
    const r = await runCli(['fetch', url], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${expected.replace(/\n*$/, '')}\n`);
    expect(r.stderr).toBe('');

    const json = await runCli(['fetch', url, '--json'], env);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout);
    expect(answer.run.type).toBe('fetch');
    expect(answer.result).toMatchObject({ url, content: { markdown: expected } });
  });

  it('never prints a control character a page put in its text', async () => {
    const url = site.url('ansi.example.test', '/');
    site.page(url, {
      body: '<html><head><title>t</title></head><body><h1>Escape \u001b[2J\u001b[31mred\u0007 title</h1><p>A paragraph long enough to count as the main content of this small page, with a bell \u0007 and a C1 \u009b31m control.</p></body></html>',
      contentType: 'text/html; charset=utf-8',
    });
    // Precondition: the API hands the control characters on, so the CLI is what removes them.
    expect((await apiFetch(url)).result.content.markdown).toMatch(CONTROL_CHARS);
    const r = await runCli(['fetch', url], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('# Escape \\[2J\\[31mred title\n');
    expect(r.stdout).not.toMatch(CONTROL_CHARS);
    const json = await runCli(['fetch', url, '--json'], env);
    expect(json.stdout).not.toMatch(CONTROL_CHARS);
    expect(JSON.parse(json.stdout).result.content.markdown).toMatch(CONTROL_CHARS);
  });

  it('a bad key prints one error line and exits 1; no key exits 2; an unreachable API exits 4', async () => {
    const bad = await runCli(['fetch', `${fixture.origin('site.test')}/article`], { ...env, TRAWL_KEY: 'wrong-key-0123456789' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: authentication_required: [^\n]+ \(request \S+\)\n$/);

    const none = await runCli(['fetch', 'http://site.test/'], { TRAWL_BASE: gw.url });
    expect(none).toMatchObject({ code: 2, stdout: '', stderr: 'error: no API key: pass --key or set TRAWL_KEY\n' });

    const nowhere = await runCli(['--base', `http://127.0.0.1:${await freePort()}`, 'fetch', 'http://site.test/'], env);
    expect(nowhere.code).toBe(4);
    expect(nowhere.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);

    const usage = await runCli(['crawl', 'http://site.test/', '--max-pages', 'lots'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('trends prints the Top and Rising queries of one job per keyword; --json prints the jobs', async () => {
    const grain = ['--timeframe', '2021-01-01 2021-12-31', '--tz', '360'];
    const r = await runCli(['trends', 'pizza', 'pasta', ...grain], env);
    expect(r.code, r.stderr).toBe(0);
    const ids = [...r.stdout.matchAll(/\((job_\S+), completed\)/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    const job = await getTrendsJob(gw, ids[0]);
    expect(job.request).toEqual({ keyword: 'pizza', geo: '', timeframe: '2021-01-01 2021-12-31', category: 0, property: '', hl: 'en-US', tz: 360 });
    expect(r.stdout).toContain(`pizza (${ids[0]}, completed)\n  Top\n`);
    for (const q of [...job.result!.top, ...job.result!.rising]) expect(r.stdout).toMatch(new RegExp(`  ${q.formatted_value.replace(/[+%]/g, '\\$&')}  ${q.query}\n`));
    expect(r.stdout).toContain('Breakout  licorice pizza');

    const json = await runCli(['trends', 'pizza', ...grain, '--json'], env);
    const [one] = JSON.parse(json.stdout);
    expect(one.result).toEqual(job.result);

    sim.inject('explore', { kind: 'status', status: 400 });
    const failed = await runCli(['trends', 'rejected query', ...grain], env);
    expect(failed.code).toBe(3);
    expect(failed.stdout).toMatch(/rejected query \(job_\S+, failed\)\n  upstream_rejected: /);
  });
});
