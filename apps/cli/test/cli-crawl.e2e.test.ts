import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, duplicates, getCrawl, isTerminal, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';
import { CONTROL_CHARS, runCli, spawnCli } from './run-cli.ts';

/**
 * `trawl crawl` end to end: a real in-memory gateway crawling a local site, the CLI as a child process, with
 * pipes or inside a pseudo-terminal (util-linux `script`).
 */
let gw: TestGateway;
let site: CrawlSite;
let dir: string;
let env: Record<string, string>;

/** A seed linking to `n` pages, each answering after `latencyMs`. */
function defineSite(host: string, n: number, latencyMs: number): string {
  const children = Array.from({ length: n }, (_, i) => `/page-${i + 1}`);
  site.page(site.url(host), { title: `${host} home`, links: children });
  for (const p of children) site.page(site.url(host, p), { title: `${host} ${p}`, latencyMs });
  return site.url(host);
}

beforeAll(async () => {
  [gw, site] = await Promise.all([startTestGateway({ LOG_LEVEL: 'warn' }), startCrawlSite()]);
  dir = mkdtempSync(join(tmpdir(), 'trawl-cli-'));
  env = { TRAWL_BASE: gw.url, TRAWL_KEY: TEST_KEY };
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const crawlIdIn = (text: string) => /\b(crawl_[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;

/** The JSON lines of `text`, each parsed; every line must be one JSON object. */
function jsonLines(text: string): { id: string; crawl_id: string; url: string }[] {
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n').map((l) => JSON.parse(l));
}

async function expectAllItemsOnce(lines: { id: string; crawl_id: string }[], crawlId: string) {
  const api = await allItems(gw, crawlId);
  expect(duplicates(lines.map((l) => l.id))).toEqual([]);
  expect(lines.map((l) => l.id)).toEqual(api.map((i) => i.id));
  expect(lines.every((l) => l.crawl_id === crawlId)).toBe(true);
  // Each line is the item exactly as the API gives it.
  expect(lines).toEqual(JSON.parse(JSON.stringify(api)));
}

describe('trawl crawl', () => {
  it('without a terminal: every item once as JSON Lines on stdout, plain progress lines on stderr, no control character', async () => {
    const seed = defineSite('plain.example.test', 8, 60);
    // --base and --key as flags here; the other cases set TRAWL_BASE and TRAWL_KEY.
    const r = await runCli(['--base', gw.url, '--key', TEST_KEY, 'crawl', seed, '--max-depth', '1', '--max-pages', '20']);
    expect(r.code, r.stderr).toBe(0);
    const id = crawlIdIn(r.stderr)!;
    expect((await getCrawl(gw, id)).status).toBe('completed');
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(9);
    await expectAllItemsOnce(lines, id);
    expect(r.stderr).toMatch(new RegExp(`${id} completed: 9 delivered, 0 failed of 9 admitted in \\S+; 9 items written to stdout`));
    expect(r.stderr).toMatch(/delivered, \d+ admitted, \d+ failed, \S+ pages\/s, ETA \S+\n/);
    expect(r.stdout + r.stderr).not.toMatch(CONTROL_CHARS);
  }, 60_000);

  it('on a terminal: a live progress bar while the crawl runs, and every item once in --out', async () => {
    const seed = defineSite('tty.example.test', 10, 400);
    const out = join(dir, 'tty-items.jsonl');
    const p = spawnCli(['crawl', seed, '--max-depth', '1', '--out', out], env, { tty: true });
    const code = await p.exit;
    const screen = p.stdout();
    expect(code, screen).toBe(0);
    // cli-progress draws the bar (shades_classic) with cursor control, rewriting the line in place.
    expect(screen).toMatch(/[\u2588\u2591]{24} \d+% \| delivered \d+ \| admitted \d+ \| failed 0 \| \S+ pages\/s \| ETA (--|[0-9hms]+) \| running/);
    expect(screen).toContain('\u001b[');
    expect(screen).toContain('\r');
    expect(screen).toMatch(/\| delivered 11 \| admitted 11 \| failed 0 \|.*\| completed/);
    const id = crawlIdIn(screen)!;
    await expectAllItemsOnce(jsonLines(readFileSync(out, 'utf8')), id);
    expect(screen).toContain(`11 items written to ${out}`);
  }, 60_000);

  it('Ctrl-C without a terminal leaves the crawl running, prints its id and exits 130', async () => {
    const seed = defineSite('sigint.example.test', 12, 1500);
    const out = join(dir, 'sigint-items.jsonl');
    const p = spawnCli(['crawl', seed, '--max-depth', '1', '--out', out], env);
    await p.waitFor(/crawl_\S+ running: \d+ delivered/);
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(130);
    const id = crawlIdIn(p.stderr())!;
    expect(p.stderr()).toContain(`interrupted: ${id} is still running; follow it again with: trawl resume ${id}`);
    expect(p.stderr()).not.toMatch(CONTROL_CHARS);
    const after = await getCrawl(gw, id);
    expect(['queued', 'running']).toContain(after.status);
    // Items written before Ctrl-C (if any) are whole lines, a prefix of the crawl's items.
    const text = readFileSync(out, 'utf8');
    const written = text === '' ? [] : jsonLines(text);
    const done = await waitForCrawl(gw, id);
    expect(done.status).toBe('completed');
    expect(written.map((l) => l.id)).toEqual((await allItems(gw, id)).slice(0, written.length).map((i) => i.id));
  }, 60_000);

  it('Ctrl-C on a terminal asks; "y" pauses the crawl, and `trawl resume` finishes it writing every item once', async () => {
    const seed = defineSite('pause.example.test', 12, 1500);
    const out = join(dir, 'pause-items.jsonl');
    const p = spawnCli(['crawl', seed, '--max-depth', '1', '--out', out], env, { tty: true });
    await p.waitFor(/\| running/);
    p.write('\u0003');
    await p.waitFor(/Pause the crawl crawl_\S+\? \[y\/N\] /);
    p.write('y\r');
    expect(await p.exit).toBe(130);
    const id = crawlIdIn(p.stdout())!;
    expect(p.stdout()).toContain(`${id} paused. Resume it with: trawl resume ${id}`);
    const paused = await getCrawl(gw, id);
    expect(paused.status).toBe('paused');

    const resumed = await runCli(['resume', id, '--out', out], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`${id} running: is being followed`);
    await expectAllItemsOnce(jsonLines(readFileSync(out, 'utf8')), id);
    expect(isTerminal(await getCrawl(gw, id))).toBe(true);
  }, 60_000);

  it('Ctrl-C on a terminal answered "n" leaves the crawl running', async () => {
    const seed = defineSite('keep.example.test', 12, 1500);
    const p = spawnCli(['crawl', seed, '--max-depth', '1', '--out', join(dir, 'keep.jsonl')], env, { tty: true });
    await p.waitFor(/\| running/);
    p.write('\u0003');
    await p.waitFor(/\[y\/N\] /);
    p.write('\r');
    expect(await p.exit).toBe(130);
    const id = crawlIdIn(p.stdout())!;
    expect(p.stdout()).toContain(`${id} is still running. Follow it again with: trawl resume ${id}`);
    expect(['queued', 'running', 'completed']).toContain((await getCrawl(gw, id)).status);
    expect((await waitForCrawl(gw, id)).status).toBe('completed');
  }, 60_000);

  it('sends the --extraction file as the crawl’s extraction: items carry its records', async () => {
    const seed = defineSite('extract.example.test', 2, 0);
    const file = join(dir, 'extraction.json');
    const extraction = {
      type: 'json_css',
      schema: { name: 'links', base_selector: 'li', fields: [{ name: 'label', selector: 'a', type: 'text' }, { name: 'href', selector: 'a', type: 'attribute', attribute: 'href' }] },
    };
    writeFileSync(file, JSON.stringify(extraction));
    const r = await runCli(['crawl', seed, '--max-depth', '0', '--extraction', file], env);
    expect(r.code, r.stderr).toBe(0);
    const [item] = jsonLines(r.stdout) as unknown as { records: unknown[] }[];
    expect(item.records).toEqual([
      { label: 'Link 1', href: '/page-1' },
      { label: 'Link 2', href: '/page-2' },
    ]);
    expect((await getCrawl(gw, crawlIdIn(r.stderr)!)).request.extraction).toMatchObject(extraction);
  }, 60_000);

  it('refuses an unreadable --extraction or an unwritable --out with exit 2, before calling the API', async () => {
    // A listener that counts requests stands in for the API: the CLI must not call it.
    let requests = 0;
    const counter = createServer((_req, res) => {
      requests++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
    try {
      const missing = join(dir, 'missing.json');
      const noFile = await runCli(['crawl', site.url('x.example.test'), '--extraction', missing], { ...env, TRAWL_BASE: base });
      expect(noFile).toMatchObject({ code: 2, stdout: '', stderr: `error: cannot read ${missing}: ENOENT\n` });
      const noDir = join(dir, 'no-such-dir', 'items.jsonl');
      const noOut = await runCli(['crawl', site.url('x.example.test'), '--out', noDir], { ...env, TRAWL_BASE: base });
      expect(noOut).toMatchObject({ code: 2, stderr: `error: cannot write ${noDir}: ENOENT\n` });
      expect(requests).toBe(0);
    } finally {
      counter.close();
    }
  }, 60_000);

  it('exits 3 with the failure when the crawl fails, and 1 with one error line when the API refuses it', async () => {
    const failed = await runCli(['crawl', site.url('missing.example.test', '/nothing-here'), '--max-depth', '0'], env);
    expect(failed.code, failed.stderr).toBe(3);
    expect(failed.stderr).toMatch(/crawl_\S+ failed: no_pages_delivered: /);
    expect(failed.stdout).toBe('');

    const refused = await runCli(['crawl', 'ftp://example.test/'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: validation_error: .+ \(request \S+\)\n$/);
    expect(refused.stdout).toBe('');
  }, 60_000);
});
