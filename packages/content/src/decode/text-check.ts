/**
 * Whether a body declared (or sniffed) as text really is text. A server can label anything text/html; random or
 * compressed bytes then decode into millions of characters of garbage that score as "good content". Text in any
 * charset we decode has next to no C0 control characters (tab, newlines, form feed and ESC, which ISO-2022-JP
 * uses, aside) and, when read as UTF-8, few invalid sequences; binary data has about 10% controls and, read as
 * UTF-8, about 40% invalid bytes. The check runs on the raw bytes, before any decoding, in one pass.
 */
export interface TextVerdict {
  text: boolean;
  /** Read as UTF-8 and over the invalid share: an unlabelled body may still be text in a legacy charset. */
  invalidUtf8: boolean;
}

/** More than this share of characters being controls (NUL included) means binary. */
const MAX_CONTROL_SHARE = 0.01;
/** More than this share of invalid UTF-8 (or U+FFFD, what a browser makes of it) means not UTF-8 text. */
const MAX_INVALID_SHARE = 0.1;
/** Below this many offending characters a body is not judged (a stray NUL in a short page is not binary). */
const MIN_EVIDENCE = 8;

export function checkText(body: Uint8Array, charset: string): TextVerdict {
  if (charset.startsWith('utf-16')) return checkUtf16(body, charset === 'utf-16be');
  const utf8 = charset === 'utf-8';
  let units = 0;
  let controls = 0;
  let invalid = 0;
  const n = body.length;
  // Printable ASCII, most of any page, is skipped four bytes at a time (words aligned to the underlying buffer).
  const skip = (4 - (body.byteOffset & 3)) & 3;
  const quads = n > skip ? new Uint32Array(body.buffer, body.byteOffset + skip, (n - skip) >> 2) : EMPTY_QUADS;
  let i = 0;
  while (i < n) {
    if (i >= skip && ((i - skip) & 3) === 0) {
      let q = (i - skip) >> 2;
      while (q < quads.length && isPrintableQuad(quads[q])) q++;
      const next = skip + (q << 2);
      units += next - i;
      i = next;
      if (i >= n) break;
    }
    const b = body[i];
    units++;
    if (b < 0x80 || !utf8) {
      if (isControl(b)) controls++;
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = len > 0 && i + len <= n;
    for (let k = 1; ok && k < len; k++) ok = (body[i + k] & 0xc0) === 0x80;
    if (!ok) {
      invalid++;
      i++;
      continue;
    }
    if (len === 3 && b === 0xef && body[i + 1] === 0xbf && body[i + 2] === 0xbd) invalid++; // U+FFFD
    else if (len === 2 && b === 0xc2 && body[i + 1] < 0xa0) controls++; // C1 controls
    i += len;
  }
  return verdict(units, controls, invalid);
}

const EMPTY_QUADS = new Uint32Array(0);

/**
 * Whether all four bytes of a word lie in 0x20..0x7f. Exact: with no high bit set, a byte below 0x20 is the first
 * to borrow in the subtraction and leaves its own high bit set; bytes from 0x20 subtract without a borrow.
 */
function isPrintableQuad(quad: number): boolean {
  return (((quad - 0x20202020) | quad) & 0x80808080) === 0;
}

function checkUtf16(body: Uint8Array, bigEndian: boolean): TextVerdict {
  let units = 0;
  let controls = 0;
  let invalid = 0;
  for (let i = 0; i + 1 < body.length; i += 2) {
    const u = bigEndian ? (body[i] << 8) | body[i + 1] : body[i] | (body[i + 1] << 8);
    units++;
    if (u < 0x80 && isControl(u)) controls++;
    else if (u === 0xfffd) invalid++;
  }
  return verdict(units, controls, invalid);
}

function verdict(units: number, controls: number, invalid: number): TextVerdict {
  const binary = controls >= MIN_EVIDENCE && controls > units * MAX_CONTROL_SHARE;
  const invalidUtf8 = invalid >= MIN_EVIDENCE && invalid > units * MAX_INVALID_SHARE;
  return { text: !binary && !invalidUtf8, invalidUtf8: !binary && invalidUtf8 };
}

function isControl(b: number): boolean {
  return b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b) || b === 0x0b;
}
