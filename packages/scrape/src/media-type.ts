/** Only the media type (never parameters, which a hostile server could fill with anything). */
export function mediaType(contentType: string | null): string {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t) ? t : 'unknown';
}
