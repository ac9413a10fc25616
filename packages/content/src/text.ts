// Small text helpers shared by the extraction steps.

/** Words: runs of letters, digits, combining marks and underscores (close to a Unicode \w+). */
export const WORD = /[\p{L}\p{N}_\p{M}]+/gu;

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/** Whitespace runs collapsed to one space, ends trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
