import { afterAll, describe, expect, it } from 'vitest';
import { UnsupportedContentTypeError } from '@trawl/content';
import { inlineContentProcessor, threadedContentProcessor } from '../src/index.ts';

const page = (n: number) =>
  Buffer.from(
    `<html><head><title>Page ${n}</title></head><body><nav><a href="/">Home</a></nav><main><h1>Heading ${n}</h1>` +
      `<p>${'Tidal energy in small harbours. '.repeat(40)}</p><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>${n}</td></tr></table>` +
      `<a href="/next/${n}">next</a></main></body></html>`,
  );

describe('content processors', () => {
  const pool = threadedContentProcessor(2);
  afterAll(() => pool.close());

  it('a content thread returns exactly what parsing in this thread returns', async () => {
    const inline = inlineContentProcessor();
    for (const n of [1, 2, 3]) {
      const input = { body: page(n), contentType: 'text/html; charset=utf-8', url: `http://site.test/p/${n}` };
      expect(await pool.normalize(input)).toEqual(await inline.normalize(input));
    }
  });

  it('keeps many concurrent pages apart', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, n) => pool.normalize({ body: page(n), contentType: 'text/html', url: `http://site.test/p/${n}` })),
    );
    results.forEach((r, n) => expect(r.title).toBe(`Page ${n}`));
  });

  it('carries an unsupported content type back as UnsupportedContentTypeError', async () => {
    const err = await pool.normalize({ body: Buffer.from([0x89, 0x50]), contentType: 'image/png', url: 'http://site.test/x.png' }).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedContentTypeError);
    expect(err.contentType).toBe('image/png');
  });

  it('leaves the caller’s buffer intact (the body is copied before transfer)', async () => {
    const body = page(7);
    const copy = Buffer.from(body);
    await pool.normalize({ body, contentType: 'text/html', url: 'http://site.test/' });
    expect(body.equals(copy)).toBe(true);
  });

  it('refuses work after close', async () => {
    const p = threadedContentProcessor(1);
    await p.close();
    await expect(p.normalize({ body: page(1), contentType: 'text/html', url: 'http://site.test/' })).rejects.toThrow(/closed/);
  });
});
