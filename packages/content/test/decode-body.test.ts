import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody, normalizeContent } from '../src/index.ts';

const JAPANESE = '潮だまりの生き物は、一日に二度の干潮を生き抜きます。';
const FRENCH = 'Les marées « vives » arrivent après la pleine lune — voilà pourquoi.';

function htmlPage(text: string, head = ''): string {
  return `<!doctype html><html><head>${head}<title>t</title></head><body><main><p>${text}</p></main></body></html>`;
}

describe('decodeBody', () => {
  it('decodes Shift_JIS named by the Content-Type header', () => {
    const body = iconv.encode(htmlPage(JAPANESE), 'Shift_JIS');
    const { text, charset } = decodeBody(body, 'text/html; charset=Shift_JIS', 'html');
    expect(charset).toBe('shift_jis');
    expect(text).toContain(JAPANESE);
  });

  it('decodes Shift_JIS named by <meta charset> when the header has none', () => {
    const body = iconv.encode(htmlPage(JAPANESE, '<meta charset="shift_jis">'), 'Shift_JIS');
    const { text, charset } = decodeBody(body, 'text/html', 'html');
    expect(charset).toBe('shift_jis');
    expect(text).toContain(JAPANESE);
  });

  it('decodes windows-1252 named by the header, and ISO-8859-1 labels as windows-1252', () => {
    const body = iconv.encode(htmlPage(FRENCH), 'windows-1252');
    expect(decodeBody(body, 'text/html; charset=windows-1252', 'html').text).toContain(FRENCH);
    const curly = Buffer.from([0x93, 0x71, 0x94]); // “q” in windows-1252, C1 controls in strict Latin-1
    expect(decodeBody(curly, 'text/plain; charset=ISO-8859-1', 'text')).toEqual({ text: '\u201cq\u201d', charset: 'windows-1252' });
  });

  it('decodes windows-1252 named by <meta http-equiv="content-type">', () => {
    const head = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">';
    const body = iconv.encode(htmlPage(FRENCH, head), 'windows-1252');
    const { text, charset } = decodeBody(body, null, 'html');
    expect(charset).toBe('windows-1252');
    expect(text).toContain(FRENCH);
  });

  it('prefers the header charset over the BOM and the <meta> declaration', () => {
    const body = iconv.encode(htmlPage(FRENCH, '<meta charset="utf-8">'), 'windows-1252');
    expect(decodeBody(body, 'text/html; charset="windows-1252"', 'html').text).toContain(FRENCH);
  });

  it('uses a byte order mark when the header names no charset, and strips it', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(htmlPage(FRENCH), 'utf16le')]);
    const result = decodeBody(utf16, 'text/html', 'html');
    expect(result.charset).toBe('utf-16le');
    expect(result.text.startsWith('<!doctype')).toBe(true);
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(FRENCH)]);
    expect(decodeBody(utf8, null, 'text')).toEqual({ text: FRENCH, charset: 'utf-8' });
  });

  it('falls back to UTF-8 for unknown labels and undeclared bodies', () => {
    const body = Buffer.from(htmlPage(FRENCH, '<meta charset="no-such-charset">'));
    expect(decodeBody(body, 'text/html; charset=bogus', 'html')).toMatchObject({ charset: 'utf-8' });
    expect(decodeBody(body, 'text/html; charset=bogus', 'html').text).toContain(FRENCH);
  });

  it('ignores <meta> declarations in text bodies', () => {
    const body = Buffer.from('<meta charset="shift_jis"> plain text é');
    expect(decodeBody(body, 'text/plain', 'text').charset).toBe('utf-8');
  });
});

describe('normalizeContent with legacy encodings', () => {
  it('returns decoded Markdown and the charset it used', () => {
    const body = iconv.encode(htmlPage(JAPANESE, '<meta charset="Shift_JIS">'), 'Shift_JIS');
    const result = normalizeContent({ body, contentType: 'text/html', url: 'https://example.jp/' });
    expect(result.charset).toBe('shift_jis');
    expect(result.markdown).toContain(JAPANESE);
  });
});
