/** The media type (lower case, no parameters) and charset parameter of a Content-Type header. */
export interface ParsedContentType {
  mime: string;
  charset: string | null;
}

export function parseContentType(header: string | null): ParsedContentType | null {
  if (header === null) return null;
  const [type = '', ...params] = header.split(';');
  const mime = type.trim().toLowerCase();
  if (mime === '') return null;
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param.slice(eq + 1).trim().replace(/^["']|["']$/g, '').trim();
    if (value !== '') charset = value.toLowerCase();
  }
  return { mime, charset };
}
