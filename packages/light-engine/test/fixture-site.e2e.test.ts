import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useFixtureEngine, within } from './test-setup.ts';

// The shared fixture site, checked through the light engine: the pages other tests rely on say what they claim.
const fx = useFixtureEngine();

async function get(path: string, host = 'fixture.test') {
  const r = await fx.engine.fetch({ url: `${fx.site.origin(host)}${path}`, deadline: within(10_000) });
  if (!r.ok) throw new Error(`fixture page failed: ${r.failure}`);
  return r;
}

describe('fixture site', () => {
  it('serves an article with the parts extraction must cope with', async () => {
    const html = (await get('/article')).body.toString();
    for (const part of ['<nav', '<header', '<footer', 'cookie-banner', '<aside', '<table', '<pre><code', '<ul>', '<ol>', 'href="https://']) {
      expect(html, part).toContain(part);
    }
  });

  it('serves a bench page of about 20 KiB with five links', async () => {
    const r = await get('/bench-20kb');
    expect(r.body.length).toBeGreaterThan(19 * 1024);
    expect(r.body.toString().match(/<a href=/g)).toHaveLength(5);
  });

  it('encodes Shift_JIS pages for real, declared by header or by meta', async () => {
    const header = await get('/charset/sjis-header');
    expect(header.contentType).toBe('text/html; charset=Shift_JIS');
    expect(new TextDecoder('shift_jis').decode(header.body)).toContain('港町の潮力発電');
    expect(header.body.toString('utf8')).not.toContain('港町');
    const meta = await get('/charset/sjis-meta');
    expect(meta.contentType).toBe('text/html');
    expect(meta.body.toString('latin1')).toContain('<meta charset="Shift_JIS">');
    expect(new TextDecoder('shift_jis').decode(meta.body)).toContain('潮力');
  });

  it('encodes windows-1252 pages with curly quotes and accents as single bytes', async () => {
    for (const path of ['/charset/1252-header', '/charset/1252-meta']) {
      const r = await get(path);
      // Byte checks, not TextDecoder: Node 20's TextDecoder('windows-1252') decodes as latin1 (0x93 -> U+0093).
      const bytes = r.body.toString('latin1');
      expect(bytes, path).toContain('\x93harbour kitchen\x94'); // “ ” are 0x93 0x94 in windows-1252
      expect(bytes, path).toContain('Caf\xe9');
      expect(bytes, path).toContain('\x802.50'); // € is 0x80
    }
    expect((await get('/charset/1252-meta')).body.toString('latin1')).toContain('charset=windows-1252"');
  });

  it('serves a decodable PNG image', async () => {
    const r = await get('/image.png');
    expect(r.contentType).toBe('image/png');
    expect(r.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const idatLength = r.body.readUInt32BE(33);
    const pixels = inflateSync(r.body.subarray(41, 41 + idatLength));
    expect(pixels.length).toBe((24 * 3 + 1) * 16);
  });

  it('serves text, JSON, a script-only shell and status pages', async () => {
    expect((await get('/plain.txt')).contentType).toBe('text/plain; charset=utf-8');
    expect(JSON.parse((await get('/data.json')).body.toString()).tides.high).toHaveLength(2);
    expect((await get('/js-shell')).body.toString()).toContain('<div id="root"></div>');
    expect((await get('/static/app.js')).contentType).toContain('javascript');
    expect((await get('/status/418')).statusCode).toBe(418);
    expect((await get('/no-such-page')).statusCode).toBe(404);
  });

  it('counts hits by path and host and echoes the Host header', async () => {
    const before = fx.site.hits();
    await get('/echo-host', 'one.test');
    await get('/echo-host?x=1', 'two.test');
    expect((await get('/echo-host', 'one.test')).body.toString()).toContain(`one.test:${fx.site.port}`);
    expect(fx.site.hits('/echo-host')).toBe(3);
    expect(fx.site.hits('/echo-host', 'one.test')).toBe(2);
    expect(fx.site.hits(undefined, 'two.test')).toBe(1);
    expect(fx.site.hits()).toBe(before + 3);
  });
});
