import { randomBytes } from 'node:crypto';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { normalizeContent, UnsupportedContentTypeError } from '../src/index.ts';
import { checkText } from '../src/decode/text-check.ts';

const run = (body: Buffer, contentType: string | null) => normalizeContent({ body, contentType, url: 'https://example.com/' });
const refused = (body: Buffer, contentType: string | null) => {
  try {
    run(body, contentType);
  } catch (err) {
    return err instanceof UnsupportedContentTypeError && err.notText;
  }
  return false;
};
const FRENCH = '<html><body><main><p>Les élèves étaient déjà là, à côté du théâtre où l’on joue « Phèdre ». Été comme hiver, ça marche.</p></main></body></html>';

describe('content type by content', () => {
  it('refuses random bytes served as text/html, text/plain or JSON', () => {
    const garbage = randomBytes(256 * 1024);
    for (const type of ['text/html', 'text/html; charset=utf-8', 'text/plain', 'application/json', 'text/html; charset=windows-1252']) {
      expect(refused(garbage, type), type).toBe(true);
    }
  });

  it('refuses binary with an HTML head in front, and a rendered page full of U+FFFD', () => {
    const head = Buffer.from('<!doctype html><html><head><title>x</title></head><body>');
    expect(refused(Buffer.concat([head, randomBytes(200_000)]), 'text/html')).toBe(true);
    expect(refused(Buffer.from(`<html><body>${'\uFFFDa\uFFFD'.repeat(5000)}</body></html>`), 'text/html; charset=utf-8')).toBe(true);
  });

  it('reads text in legacy charsets (labelled or not) and UTF-16 as text', () => {
    expect(run(iconv.encode(FRENCH, 'windows-1252'), 'text/html; charset=windows-1252').markdown).toContain('élèves');
    expect(run(iconv.encode('<p>日本語のテキストです。東京都の天気は晴れ。</p>'.repeat(50), 'shift_jis'), 'text/html; charset=shift_jis').markdown).toContain('東京都');
    // ISO-2022-JP switches with ESC sequences (ESC $ B ... ESC ( B) around 7-bit bytes: ESC is not a sign of binary.
    const jis = Buffer.from('<p>\x1b$BF|K\\8l\x1b(B text</p>'.repeat(200), 'latin1');
    expect(refused(jis, 'text/html; charset=iso-2022-jp')).toBe(false);
    expect(run(iconv.encode('<p>Привет, как дела? Всё хорошо.</p>'.repeat(50), 'utf-16le'), 'text/html; charset=utf-16le').markdown).toContain('Привет');
    // No label anywhere and not UTF-8: read as windows-1252, as browsers do, rather than refused or mangled.
    expect(run(iconv.encode(FRENCH.repeat(20), 'windows-1252'), 'text/html').markdown).toContain('élèves');
  });

  it('keeps a page with a few stray control bytes or invalid sequences', () => {
    const body = Buffer.concat([Buffer.from(FRENCH.repeat(30)), Buffer.from([0x00, 0x01, 0xff, 0xfe]), Buffer.from(FRENCH)]);
    expect(run(body, 'text/html; charset=utf-8').markdown).toContain('élèves');
  });
});

describe('checkText reads every byte wherever it sits', () => {
  // The body as a view at each alignment of its buffer: printable ASCII is skipped a machine word at a time.
  const at = (bytes: number[], offset: number) => {
    const buffer = new Uint8Array(bytes.length + 8);
    buffer.set(bytes, offset);
    return buffer.subarray(offset, offset + bytes.length);
  };
  const spread = (odd: number[], start: number) => {
    const bytes = new Array<number>(400).fill(0x61);
    for (let k = 0; k < 9; k++) bytes.splice(start + k * 13, odd.length, ...odd);
    return bytes;
  };

  it('counts a control byte at every position and alignment, and lets whitespace and ESC pass', () => {
    for (let offset = 0; offset < 4; offset++) {
      for (let start = 0; start < 8; start++) {
        for (const control of [0x00, 0x01, 0x08, 0x0b, 0x0e, 0x1f]) {
          expect(checkText(at(spread([control], start), offset), 'utf-8').text, `${control} at ${start}+${offset}`).toBe(false);
        }
        for (const space of [0x09, 0x0a, 0x0c, 0x0d, 0x1b, 0x7f]) {
          expect(checkText(at(spread([space], start), offset), 'utf-8').text, `${space} at ${start}+${offset}`).toBe(true);
        }
      }
    }
  });

  it('reads a UTF-8 sequence across word boundaries, and counts a broken one', () => {
    for (let offset = 0; offset < 4; offset++) {
      for (let start = 0; start < 8; start++) {
        for (const char of ['é', '€', '😀']) {
          const verdict = checkText(at(spread([...Buffer.from(char)], start), offset), 'utf-8');
          expect(verdict, `${char} at ${start}+${offset}`).toEqual({ text: true, invalidUtf8: false });
        }
        const short = spread([0xe2, 0x82], start).slice(0, 80);
        expect(checkText(at(short, offset), 'utf-8'), `broken at ${start}+${offset}`).toEqual({ text: false, invalidUtf8: true });
      }
    }
  });
});
