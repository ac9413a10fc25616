// Small text helpers shared by the extraction steps. The counters run once per text node of every page, so they
// scan characters instead of building match arrays or collapsed copies of the text.

/** A word character: words are runs of letters, digits, combining marks and underscores (close to a Unicode
 * \w+), counted per code point. */
const WORD_CHAR = /^[\p{L}\p{N}_\p{M}]$/u;
/** Whitespace as \s and trim() see it. */
const SPACE_CHAR = /^\s$/;

export function countWords(text: string): number {
  return countTextFigures(text).words;
}

/**
 * Markup tags replaced by spaces. A tag holds no "<": with /<[^>]*>/ every "<" not closed scanned to the end of
 * the text, quadratic on a text of many (20,000 took 0.4 s, a megabyte would take minutes).
 */
export function withoutTags(html: string): string {
  return html.replace(/<[^<>]*>/g, ' ');
}

/** Whitespace runs collapsed to one space, ends trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface TextFigures {
  /** Runs of word characters. */
  words: number;
  /** Sentence punctuation: . , ; : ! ? 。 、 ， */
  punctuation: number;
  /** The text's length once collapsed on its own, without its leading and trailing whitespace. */
  inner: number;
  /** LEADING_SPACE, TRAILING_SPACE and NOT_EMPTY bits. */
  edges: number;
}

export const NOT_EMPTY = 1;
export const LEADING_SPACE = 2;
export const TRAILING_SPACE = 4;

/**
 * The length collapse() would give the concatenation of a sequence of texts, fed one text's figures at a time
 * (without building either string).
 */
export class CollapsedLength {
  length = 0;
  private pendingSpace = false;

  add(inner: number, edges: number): void {
    if (inner === 0) {
      // Whitespace only: one space if text follows; none at the start.
      if (edges & NOT_EMPTY && this.length > 0) this.pendingSpace = true;
      return;
    }
    if (this.length > 0 && (this.pendingSpace || edges & LEADING_SPACE)) this.length++;
    this.length += inner;
    this.pendingSpace = (edges & TRAILING_SPACE) !== 0;
  }
}

// Per UTF-16 unit: 0 not yet known, else one of the classes below. Filled lazily: a page touches few distinct
// characters, and each is classified by the patterns themselves once per process.
const classes = new Uint8Array(65536);
const WORD = 1;
const OTHER = 2;
const PUNCTUATION = 3;
const SPACE = 4;
const SURROGATE = 5;
for (let code = 0; code < 128; code++) classes[code] = classify(code);
for (const char of '.,;:!?。、，') classes[char.charCodeAt(0)] = PUNCTUATION;

const figures: TextFigures = { words: 0, punctuation: 0, inner: 0, edges: 0 };

/** Word, punctuation and whitespace figures of one text. The result object is reused by the next call. */
export function countTextFigures(text: string): TextFigures {
  let words = 0;
  let punctuation = 0;
  let inWord = false;
  // Collapsed length: characters that are not whitespace, plus one per whitespace run between two of them.
  let solid = 0;
  let gaps = 0;
  let spaceBefore = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let kind = classes[code];
    if (kind === 0) kind = classes[code] = classify(code);
    if (kind === SPACE) {
      spaceBefore = true;
      inWord = false;
      continue;
    }
    if (spaceBefore && solid > 0) gaps++;
    spaceBefore = false;
    solid++;
    if (kind === SURROGATE && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one code point, classified as a whole (astral letters and digits are word
      // characters too); a lone surrogate is not.
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        solid++;
        kind = isAstralWordChar(code, next) ? WORD : OTHER;
      }
    }
    if (kind === WORD) {
      if (!inWord) words++;
      inWord = true;
      continue;
    }
    inWord = false;
    if (kind === PUNCTUATION) punctuation++;
  }
  figures.words = words;
  figures.punctuation = punctuation;
  figures.inner = solid + gaps;
  figures.edges = text.length === 0 ? 0 : NOT_EMPTY | (classes[text.charCodeAt(0)] === SPACE ? LEADING_SPACE : 0) | (spaceBefore ? TRAILING_SPACE : 0);
  return figures;
}

function classify(code: number): number {
  if (code >= 0xd800 && code <= 0xdfff) return SURROGATE; // handled in pairs above
  const char = String.fromCharCode(code);
  if (SPACE_CHAR.test(char)) return SPACE;
  return WORD_CHAR.test(char) ? WORD : OTHER;
}

const astral = new Map<number, boolean>();

function isAstralWordChar(high: number, low: number): boolean {
  const codePoint = (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  let word = astral.get(codePoint);
  if (word === undefined) {
    word = WORD_CHAR.test(String.fromCharCode(high, low));
    if (astral.size < 10_000) astral.set(codePoint, word);
  }
  return word;
}
