import { parseContentType } from './content-type.ts';

export type ContentKind = 'html' | 'text' | 'json';

// Textual types outside text/* that read well as-is (feeds, scripts, CSV exports).
const TEXTUAL_APPLICATION_TYPES = new Set([
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/csv',
  'application/x-sh',
  'application/toml',
  'application/yaml',
  'application/x-yaml',
]);

/**
 * Which of our converters a body goes through, or null when we do not turn it into Markdown.
 * The header decides when present; the bytes are sniffed only when it is absent (or empty).
 */
export function contentKindOf(contentTypeHeader: string | null, body: Buffer): ContentKind | null {
  const parsed = parseContentType(contentTypeHeader);
  if (parsed === null) return sniffKind(body);
  const { mime } = parsed;
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/json' || mime === 'text/json' || mime.endsWith('+json')) return 'json';
  if (mime.startsWith('text/')) return 'text';
  if (TEXTUAL_APPLICATION_TYPES.has(mime) || mime.endsWith('+xml')) return 'text';
  return null;
}

// Signatures of common binary formats, checked before any text heuristic.
const BINARY_MAGIC: readonly number[][] = [
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0xff, 0xd8, 0xff], // JPEG
  [0x50, 0x4b, 0x03, 0x04], // ZIP (docx, xlsx, jar...)
  [0x1f, 0x8b], // gzip
  [0x52, 0x49, 0x46, 0x46], // RIFF (webp, wav, avi)
  [0x00, 0x00, 0x01, 0x00], // ICO
  [0x77, 0x4f, 0x46], // wOF (web fonts)
];

const SNIFF_BYTES = 1024;

function sniffKind(body: Buffer): ContentKind | null {
  if (BINARY_MAGIC.some((magic) => magic.every((byte, i) => body[i] === byte))) return null;
  const head = body.subarray(0, SNIFF_BYTES);
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!utf16 && looksBinary(head)) return null;
  const text = (utf16 ? head.toString('utf16le') : head.toString('latin1')).replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '');
  const start = text.trimStart().slice(0, 512).toLowerCase();
  if (/^<(!doctype html|html|head|body|meta|title|div|p|!--|script|style|link)[\s>]/.test(start)) return 'html';
  if (/<(html|body|div|p)[\s>]/.test(start) && start.startsWith('<')) return 'html';
  if (/^[[{]/.test(start) && looksLikeJson(body)) return 'json';
  return 'text';
}

/** NUL bytes or many control characters mean binary data, not text in an ASCII-compatible charset. */
function looksBinary(head: Buffer): boolean {
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++;
  }
  return control > head.length / 10;
}

function looksLikeJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
