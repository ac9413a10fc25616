// The adapter around htmlparser2 (and its tree builder, domhandler): parses a page into a node tree under the
// structural limits below. htmlparser2 keeps its open-element stack with its top at index 0 (unshift/shift per
// tag), so every open or close costs time in proportion to the nesting depth: a page of 100,000 nested <div>s took
// 2 s to parse and 300,000 took a minute, before any of our own work. Capping the stack's depth keeps parsing
// linear; capping elements keeps every later pass (all linear) bounded however the markup is shaped.
import { DomHandler } from 'domhandler';
import { Parser } from 'htmlparser2';

export interface ParseLimits {
  /** Open elements deeper than this are not created: their tags are ignored, their text joins the deepest kept element. */
  maxDepth: number;
  /** The page ends after this many elements: later tags and text are not kept. */
  maxElements: number;
}

export interface ParseResult {
  root: unknown;
  depthCapped: boolean;
  elementsCapped: boolean;
}

// The members of htmlparser2's Parser we wrap (private in its typings, stable in its code since v4).
interface ParserInternals {
  stack: string[];
  tagname: string;
  attribs: Record<string, string> | null;
  lowerCaseTagNames: boolean;
  emitOpenTag(name: string): void;
  onclosetag(start: number, endIndex: number): void;
  isVoidElement(name: string): boolean;
  getSlice(start: number, end: number): string;
  startIndex: number;
  endIndex: number;
}

let parses = 0;

/**
 * Documents parsed by this thread so far: a count of work that does not depend on the machine, which tests hold at
 * one per page (content, links, metadata and record extraction share one parse).
 */
export function htmlParses(): number {
  return parses;
}

/**
 * Parses with htmlparser2's own rules, except that a tag opening past the depth limit (or past the element limit)
 * is ignored along with its matching close tag. That is Chromium's precedent (its parser stops nesting at 512
 * levels and attaches deeper elements higher up), without the attaching: the deep tail of a page becomes the text
 * of its deepest kept element. One <a> may still open beyond the depth limit so that deep links stay links.
 */
export function parseLimited(html: string, limits: ParseLimits): ParseResult {
  parses++;
  const handler = new DomHandler();
  const parser = new Parser(handler);
  const p = parser as unknown as ParserInternals;
  const emitOpenTag = p.emitOpenTag.bind(p);
  const onclosetag = p.onclosetag.bind(p);
  // Ignored open tags per name, so that their close tags are ignored too (and do not close a kept ancestor).
  const ignored = new Map<string, number>();
  // Their count: while none is pending and the stack is below the limit, a close tag is htmlparser2's own business.
  let ignoredOpen = 0;
  let elements = 0;
  const result: ParseResult = { root: handler.root, depthCapped: false, elementsCapped: false };

  p.emitOpenTag = (name: string) => {
    const isVoid = p.isVoidElement(name);
    const overElements = elements >= limits.maxElements;
    const overDepth = !isVoid && p.stack.length >= limits.maxDepth;
    // Only this <a> can take the stack past the limit, so an exact match means no deep <a> is open.
    const anchorAllowed = overDepth && !overElements && name === 'a' && p.stack.length === limits.maxDepth;
    if ((overElements || overDepth) && !anchorAllowed) {
      // (An ignored void element over the depth limit is harmless; over the element limit nothing is kept.)
      if (overElements) {
        // The page ends here: the tokenizer stops (the tree built so far is complete as a tree), so the rest of
        // an element bomb costs nothing, not even tokenizing.
        result.elementsCapped = true;
        parser.pause();
      } else result.depthCapped = true;
      if (!isVoid) {
        ignored.set(name, (ignored.get(name) ?? 0) + 1);
        ignoredOpen++;
      }
      // What endOpenTag reads: with no attribs and no tag name it emits nothing for the ignored tag.
      p.tagname = '';
      p.attribs = null;
      return;
    }
    elements++;
    emitOpenTag(name);
  };

  p.onclosetag = (start: number, endIndex: number) => {
    if (ignoredOpen === 0 && p.stack.length < limits.maxDepth) {
      onclosetag(start, endIndex);
      return;
    }
    let name = p.getSlice(start, endIndex);
    if (p.lowerCaseTagNames) name = name.toLowerCase();
    const n = ignored.get(name) ?? 0;
    // A stray </p> makes htmlparser2 open and close an empty <p>: at the limit that would be ignored and
    // counted, swallowing a later real </p>, so it is dropped here instead.
    const strayAtLimit = name === 'p' && p.stack.length >= limits.maxDepth && !p.stack.includes('p');
    if (n > 0 || strayAtLimit) {
      if (n > 0) {
        ignored.set(name, n - 1);
        ignoredOpen--;
      }
      p.endIndex = endIndex;
      p.startIndex = endIndex + 1;
      return;
    }
    onclosetag(start, endIndex);
  };

  parser.end(html);
  return result;
}
