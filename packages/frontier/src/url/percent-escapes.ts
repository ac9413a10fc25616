/**
 * Percent-escape canonicalization of a URL path (RFC 3986 §6.2.2.1-2): escapes of unreserved characters
 * (A-Z a-z 0-9 - . _ ~) are decoded, every other valid escape gets upper-case hex, so `/%7euser`, `/%7Euser` and
 * `/~user` are one URL. Malformed escapes (`%zz`, a trailing `%4`) are left as they are, as the URL parser does.
 * Only for paths already resolved by the URL parser: it turned every segment spelled `%2e` / `%2e%2e` into a dot
 * segment, so decoding the `%2E`s left over can no longer create a `.` or `..` segment.
 * A hex digit is not decoded right after a stray `%` (`%%41`, `%4%31`): it would forge a new escape (`%A`+`a`,
 * `%41`) and the next pass would decode that one, breaking idempotency.
 */

const HEX_DIGITS = '0123456789ABCDEF';

/** charCode -> hex value, -1 for non-hex; a table lookup beats branching on ranges on this hot path. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[65 + i] = 10 + i;
  HEX_VALUE[97 + i] = 10 + i;
}

/** Byte value -> 1 when it is an RFC 3986 unreserved character. */
const UNRESERVED = new Uint8Array(128);
for (let c = 48; c <= 57; c++) UNRESERVED[c] = 1;
for (let c = 65; c <= 90; c++) UNRESERVED[c] = 1;
for (let c = 97; c <= 122; c++) UNRESERVED[c] = 1;
for (const c of '-._~') UNRESERVED[c.charCodeAt(0)] = 1;

function hexValue(code: number): number {
  // charCodeAt past the end gives NaN, which is not < 128: treated as non-hex.
  return code < 128 ? HEX_VALUE[code] : -1;
}

export function canonicalizePathEscapes(path: string): string {
  let at = path.indexOf('%');
  if (at < 0) return path;
  let out = '';
  let copied = 0;
  while (at >= 0) {
    const high = hexValue(path.charCodeAt(at + 1));
    const low = high < 0 ? -1 : hexValue(path.charCodeAt(at + 2));
    if (low < 0) {
      at = path.indexOf('%', at + 1);
      continue;
    }
    const byte = high * 16 + low;
    if (UNRESERVED[byte] === 1 && !(HEX_VALUE[byte] >= 0 && followsStrayPercent(path, at))) {
      out += path.slice(copied, at) + String.fromCharCode(byte);
      copied = at + 3;
    } else if (path.charCodeAt(at + 1) > 90 || path.charCodeAt(at + 2) > 90) {
      // a lower-case hex digit (a-f are the only accepted codes above 'Z')
      out += path.slice(copied, at) + '%' + HEX_DIGITS[high] + HEX_DIGITS[low];
      copied = at + 3;
    }
    at = path.indexOf('%', at + 3);
  }
  return copied === 0 ? path : out + path.slice(copied);
}

/** Whether a malformed `%` (kept verbatim, so the same in input and output) sits one or two characters before `at`. */
function followsStrayPercent(path: string, at: number): boolean {
  return path.charCodeAt(at - 1) === 37 || (path.charCodeAt(at - 2) === 37 && hexValue(path.charCodeAt(at - 1)) >= 0);
}
