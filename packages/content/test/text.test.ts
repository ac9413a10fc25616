import { describe, expect, it } from 'vitest';
import { furnitureWords } from '../src/extract/boilerplate.ts';
import { collapse, CollapsedLength, countTextFigures } from '../src/text.ts';

// The counters replace regular expressions that ran over every text of a page (words, punctuation, collapsed
// length); they must count exactly what the expressions matched.

const WORD = /[\p{L}\p{N}_\p{M}]+/gu;
const PUNCTUATION = /[.,;:!?。、，]/g;

const PIECES = [
  ' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b', '\u2028', '\u0085', 'a', 'Z', '9', '_',
  'é', 'e\u0301', '中文', '。', '、', '，', '.', ',', '!', '?', ':', ';', '-', '\ud835\udc00', '\ud83d\ude00', '\ud800',
  '\udc00', '٣', 'ß', 'word', 'two words',
];

function randomTexts(count: number): string[][] {
  let seed = 99;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const runs: string[][] = [];
  for (let run = 0; run < count; run++) {
    const texts: string[] = [];
    for (let t = Math.floor(random() * 4); t >= 0; t--) {
      let text = '';
      for (let i = Math.floor(random() * 7); i > 0; i--) text += PIECES[Math.floor(random() * PIECES.length)];
      texts.push(text);
    }
    runs.push(texts);
  }
  return runs;
}

describe('text counters', () => {
  it('count words and sentence punctuation as the patterns match them', () => {
    for (const texts of randomTexts(3000)) {
      for (const text of texts) {
        const { words, punctuation } = countTextFigures(text);
        expect([words, punctuation], JSON.stringify(text)).toEqual([text.match(WORD)?.length ?? 0, text.match(PUNCTUATION)?.length ?? 0]);
      }
    }
  });

  it('give the length of the collapsed concatenation without building it', () => {
    for (const texts of randomTexts(3000)) {
      const length = new CollapsedLength();
      for (const text of texts) {
        const { inner, edges } = countTextFigures(text);
        length.add(inner, edges);
      }
      expect(length.length, JSON.stringify(texts)).toBe(collapse(texts.join('')).length);
    }
  });

  it('count per text: a word split across two texts counts twice, as per text node before', () => {
    expect(countTextFigures('half').words + countTextFigures('word').words).toBe(2);
    expect(countTextFigures('Ein Satz. Noch einer, oder?').punctuation).toBe(3);
  });
});

describe('furniture words of class and id values', () => {
  const reference = (names: string, known: Set<string>) => [
    ...new Set(
      names
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => known.has(word)),
    ),
  ];
  const known = new Set(['nav', 'menu', 'sidebar', 'cookie', 'share', 'header', 'footer', 'ad', 'comment', 'toc', 'more', 'read', 'sr']);

  it('split on punctuation and camelCase, lower-cased, first occurrence first', () => {
    expect(furnitureWords('site-header mainNav readMore')).toEqual(['header', 'nav', 'read', 'more']);
    expect(furnitureWords('HTMLNav nav_menu  sidebar-sidebar')).toEqual(['nav', 'menu', 'sidebar']);
    expect(furnitureWords('HTMLNav')).toEqual([]);
    expect(furnitureWords('article-body')).toEqual([]);
  });

  it('agree with the word splitting they replace, Unicode case rules included', () => {
    const parts = ['nav', 'Nav', 'NAV', 'menu', 'Menu', 'side', 'bar', 'sidebar', '-', '_', ' ', '1', 'x', 'X', 'ad', 'Ad', 'héader', 'É', '\u212a', 'İ', 'comment', 'Toc', ':', 'readMore', 'srOnly'];
    let seed = 7;
    for (let run = 0; run < 5000; run++) {
      let names = '';
      for (let i = run % 6; i >= 0; i--) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        names += parts[seed % parts.length];
      }
      expect(furnitureWords(names).filter((word) => known.has(word)), names).toEqual(reference(names, known));
    }
  });
});
