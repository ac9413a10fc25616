import type { ContentKind } from './content-kind.ts';
import { parseContentType } from './content-type.ts';
import { charsetSupported, decodeBytes } from './iconv.ts';

// How far into an HTML body we look for a <meta> charset declaration.
const META_PRESCAN_BYTES = 4096;

// Labels the web uses that mean a different decoder than their name says (after the WHATWG Encoding Standard):
// pages labelled Latin-1 or ASCII are in practice windows-1252, GB2312 pages are GBK, and so on.
const CHARSET_ALIASES: Record<string, string> = {
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  'iso-8859-1': 'windows-1252',
  iso8859_1: 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  cp1252: 'windows-1252',
  'x-cp1252': 'windows-1252',
  sjis: 'shift_jis',
  'shift-jis': 'shift_jis',
  'x-sjis': 'shift_jis',
  ms_kanji: 'shift_jis',
  'windows-31j': 'shift_jis',
  cp932: 'shift_jis',
  gb2312: 'gbk',
  'x-gbk': 'gbk',
  'ks_c_5601-1987': 'euc-kr',
  'iso-8859-9': 'windows-1254',
  'iso-8859-11': 'windows-874',
  'tis-620': 'windows-874',
};

/**
 * Charset: the HTTP header's charset first, then a byte order mark, then (HTML only) a <meta charset> or
 * <meta http-equiv="content-type"> in the first 4 KB, else UTF-8. A label we cannot decode is skipped.
 */
export function decodeBody(
  body: Buffer,
  contentTypeHeader: string | null,
  kind: ContentKind,
): { text: string; charset: string } {
  const { charset } = bodyCharset(body, contentTypeHeader, kind);
  return { text: decodeWith(body, charset), charset };
}

/** The charset decodeBody would use, and whether something said so (false: the UTF-8 default). */
export function bodyCharset(body: Buffer, contentTypeHeader: string | null, kind: ContentKind): { charset: string; labelled: boolean } {
  const declared =
    usable(parseContentType(contentTypeHeader)?.charset ?? null) ??
    charsetFromBom(body) ??
    (kind === 'html' ? usable(charsetFromMeta(body)) : null);
  return { charset: declared ?? 'utf-8', labelled: declared !== null };
}

export function decodeWith(body: Buffer, charset: string): string {
  if (charset === 'utf-8') {
    const text = body.toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  return decodeBytes(body, charset);
}

/** Canonical name of a label we can decode, or null. */
function usable(label: string | null): string | null {
  if (label === null) return null;
  const lower = label.trim().toLowerCase();
  const name = CHARSET_ALIASES[lower] ?? lower;
  return name !== '' && charsetSupported(name) ? name : null;
}

function charsetFromBom(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([a-z0-9_.:+-]+)/i;
const XML_ENCODING = /^\s*<\?xml\b[^>]*\bencoding\s*=\s*["']([a-z0-9_.:+-]+)["']/i;

function charsetFromMeta(body: Buffer): string | null {
  // Latin-1 maps every byte to one char, so ASCII markup is readable whatever the real charset.
  const head = body.subarray(0, META_PRESCAN_BYTES).toString('latin1');
  const declared = (META_CHARSET.exec(head) ?? XML_ENCODING.exec(head))?.[1]?.toLowerCase() ?? null;
  // A page that could be read as ASCII cannot really be UTF-16; browsers treat the claim as UTF-8.
  return declared !== null && declared.startsWith('utf-16') ? 'utf-8' : declared;
}
