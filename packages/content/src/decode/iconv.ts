// The only module that touches iconv-lite: byte decoding for every charset Node's TextDecoder may lack.
import iconv from 'iconv-lite';

export function charsetSupported(label: string): boolean {
  return iconv.encodingExists(label);
}

/** Decodes bytes, dropping a leading BOM; never throws for a supported charset (bad bytes become U+FFFD). */
export function decodeBytes(bytes: Buffer, charset: string): string {
  return iconv.decode(bytes, charset, { stripBOM: true });
}
