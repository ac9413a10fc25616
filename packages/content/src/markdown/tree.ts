// Builds the Markdown DOM (markdown-dom.ts) from the sanitizer's events. turndown's results depend on the exact
// tree, so the tree must be the one an HTML parser (domino, turndown's own) makes of the serialized events, and
// that is not always the tree we walked: htmlparser2 nests what the HTML rules close or move (a <div> in a <p>,
// a link in a link, text directly in a <table>). The builder follows domino's rules where they keep to simple
// moves (implied <tbody> and <colgroup>, stray table tags, an open <p> or <a> closed early, the newline after
// <pre>, CR and NUL) and gives up (failed = true) where the parser would do more (reopen formatting elements,
// foster-parent out of tables); the caller then converts the serialized HTML instead. On the 300 pages of the
// quality set it never gives up; on random markup, about one tree in ten.
import { createElement, createRoot, createText, isText, type MarkdownNode } from './markdown-dom.ts';
import type { SanitizedSink } from '../sanitize/sanitize-html.ts';

// Start tags that close an open <p> (domino's list; in quirks mode, which turndown's wrapper document is in,
// <table> is not among them).
const CLOSES_P = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'CENTER', 'DETAILS', 'DIALOG', 'DIR', 'DIV', 'DL', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'HEADER', 'HGROUP', 'MAIN', 'NAV', 'OL', 'P', 'SECTION', 'SUMMARY', 'UL',
  'MENU', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'LISTING', 'LI', 'DD', 'DT', 'HR',
]);
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
// domino's "special" elements (those we can emit): they end its searches for an open <li>, <dd> or <dt> and for
// the element of a stray end tag, and one inside a link closed early would make it move things.
const SPECIAL = new Set([
  'ADDRESS', 'AREA', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'CAPTION', 'CENTER', 'COL', 'COLGROUP', 'DD', 'DETAILS',
  'DIR', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER',
  'HGROUP', 'HR', 'IMG', 'LI', 'LISTING', 'MAIN', 'MENU', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE',
  'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'WBR',
]);
const FORMATTING = new Set(['A', 'B', 'BIG', 'CODE', 'EM', 'FONT', 'I', 'NOBR', 'S', 'SMALL', 'STRIKE', 'STRONG', 'TT', 'U']);
const TABLE_PARTS = new Set(['CAPTION', 'COL', 'COLGROUP', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR']);
const SCOPE_LIMITS = new Set(['TABLE', 'TD', 'TH', 'CAPTION']);
const IMPLIED_END = new Set(['DD', 'DT', 'LI', 'P', 'RB', 'RP', 'RT', 'RTC']);
// Elements the parser treats in ways we do not follow (void, raw text, foreign content, forms...). The sanitizer
// and the Markdown shaping drop or rename nearly all of them; inside <pre> names pass through unchanged.
const UNSUPPORTED = new Set([
  'APPLET', 'BASE', 'BASEFONT', 'BGSOUND', 'BODY', 'BUTTON', 'EMBED', 'FORM', 'FRAME', 'FRAMESET', 'HEAD', 'HTML',
  'IFRAME', 'IMAGE', 'INPUT', 'KEYGEN', 'LINK', 'MARQUEE', 'MATH', 'MENUITEM', 'META', 'NOBR', 'NOEMBED',
  'NOFRAMES', 'NOSCRIPT', 'OBJECT', 'OPTGROUP', 'OPTION', 'PARAM', 'PLAINTEXT', 'SCRIPT', 'SELECT', 'SOURCE',
  'STYLE', 'SVG', 'TEMPLATE', 'TEXTAREA', 'TITLE', 'TRACK', 'XMP',
]);

// What the parser knows about the open elements, kept per stack entry (each inherits from the one below).
const P_IN_SCOPE = 1; // an open <p> that a block start tag would close
const A_OPEN = 2; // an open <a> since the last table cell or caption
const LI_OPEN = 4; // an open <li> that an <li> start tag would close
const DD_OPEN = 8; // likewise for <dd>/<dt>
const RUBY_IN_SCOPE = 16;
const IMPLIED = 32; // a <tbody> or <colgroup> the parser inserts itself

// What the end tag of an element the sanitizer opened means to the parser.
const OPEN = 0; // it closes the element
const IGNORED_TAG = 1; // nothing: a table tag outside any table, which the parser ignored (content stays in place)
const CLOSED_EARLY = 2; // the parser already closed the element (closeEarly)

// Insertion modes, from the nearest table element on the stack.
const BODY = 0;
const TABLE = 1;
const SECTION = 2;
const ROW = 3;
const CELL = 4;
const CAPTION = 5;
const COLUMNS = 6;

const MODES: Record<string, number> = { TABLE, TBODY: SECTION, THEAD: SECTION, TFOOT: SECTION, TR: ROW, TD: CELL, TH: CELL, CAPTION, COLGROUP: COLUMNS };

const ASCII_WHITESPACE = /^[\t\n\f ]*$/;

export class MarkdownTreeBuilder implements SanitizedSink {
  readonly root: MarkdownNode = createRoot();
  /** True when the parser would restructure the tree in ways not followed here: the tree is not to be used. */
  failed = false;
  // The parser's stack of open elements, with what it knows about each.
  private readonly nodes: MarkdownNode[] = [this.root];
  private readonly flags: number[] = [0];
  private readonly modes: number[] = [BODY];
  // The sanitizer's open elements, each with what its end tag will mean to the parser (see OPEN...).
  private readonly events: number[] = [];
  private readonly eventTags: string[] = [];
  /** The next text loses one leading newline (right after <pre>, as the parser does). */
  private afterPre = false;

  open(name: string, attributes: readonly string[], isVoid: boolean): void {
    if (this.failed) return;
    this.afterPre = false;
    const tag = upper(name);
    if (UNSUPPORTED.has(tag)) return this.fail();
    let top = this.nodes.length - 1;
    // An implied section ends where the parser would end it.
    if (this.flags[top] & IMPLIED) {
      const section = this.nodes[top].nodeName;
      if (section === 'COLGROUP' ? tag !== 'COL' : tag !== 'TR') {
        if (section === 'TBODY' && !TABLE_PARTS.has(tag)) return this.fail(); // would be foster-parented
        this.pop();
        top--;
      }
    }
    const mode = this.modes[top];
    switch (mode) {
      case TABLE:
        if (tag === 'TR') this.push('TBODY', null, IMPLIED);
        else if (tag === 'COL') this.push('COLGROUP', null, IMPLIED);
        else if (!(tag === 'CAPTION' || tag === 'COLGROUP' || tag === 'TBODY' || tag === 'THEAD' || tag === 'TFOOT')) return this.fail();
        break;
      case SECTION:
        if (tag !== 'TR') return this.fail();
        break;
      case ROW:
        if (tag !== 'TD' && tag !== 'TH') return this.fail();
        break;
      case COLUMNS:
        if (tag !== 'COL') return this.fail();
        break;
      case CELL:
      case CAPTION:
        if (TABLE_PARTS.has(tag)) return this.fail(); // would close the cell or caption first
        break;
      default:
        if (TABLE_PARTS.has(tag)) {
          if (!isVoid) this.openEvent(IGNORED_TAG, tag);
          return;
        }
    }
    if (mode === BODY || mode === CELL || mode === CAPTION) {
      // Start tags that make the parser close open elements first: an open <p> before a block, an open link
      // before a link. The simple cases are followed, the others given up.
      if ((CLOSES_P.has(tag) && this.flags[top] & P_IN_SCOPE) || (tag === 'A' && this.flags[top] & A_OPEN)) {
        if (!this.closeEarly(tag === 'A' ? 'A' : 'P')) return this.fail();
        top = this.nodes.length - 1;
      }
      const flags = this.flags[top];
      const current = this.nodes[top].nodeName;
      if (HEADINGS.has(tag) && HEADINGS.has(current)) return this.fail();
      if (tag === 'LI' && flags & LI_OPEN) return this.fail();
      if ((tag === 'DD' || tag === 'DT') && flags & DD_OPEN) return this.fail();
      if (flags & RUBY_IN_SCOPE && (tag === 'RB' || tag === 'RTC' || tag === 'RP' || tag === 'RT')) {
        const kept = tag === 'RP' || tag === 'RT' ? 'RTC' : '';
        if (IMPLIED_END.has(current) && current !== kept) return this.fail();
      }
    }
    this.push(tag, attributes.length > 0 ? attributes.map(normalizeAttribute) : null, 0);
    if (isVoid) this.pop();
    else {
      this.openEvent(OPEN, tag);
      if (tag === 'PRE' || tag === 'LISTING') this.afterPre = true;
    }
  }

  close(): void {
    if (this.failed) return;
    this.afterPre = false;
    const event = this.events.pop();
    const tag = this.eventTags.pop()!;
    if (event === IGNORED_TAG) return;
    if (event === CLOSED_EARLY) return this.strayEndTag(tag);
    if (this.flags[this.nodes.length - 1] & IMPLIED) this.pop(); // </table> ends the implied section too
    if (this.nodes[this.nodes.length - 1].nodeName !== tag) return this.fail(); // never in a well-nested stream
    this.pop();
  }

  text(data: string): void {
    if (this.failed) return;
    let text = data.indexOf('\r') >= 0 ? data.replace(/\r\n?/g, '\n') : data;
    if (this.afterPre) {
      this.afterPre = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    if (text.indexOf('\0') >= 0) text = text.replace(/\0/g, '');
    if (text === '') return;
    const top = this.nodes.length - 1;
    const mode = this.modes[top];
    // Text directly in a table, section, row or column group is moved out of the table unless it is blank.
    if ((mode === TABLE || mode === SECTION || mode === ROW || mode === COLUMNS) && !ASCII_WHITESPACE.test(text)) return this.fail();
    const parent = this.nodes[top];
    const last = parent.lastChild;
    // Adjacent text (around an unwrapped element) is one text node once parsed.
    if (last !== null && isText(last)) last.text += text;
    else parent.appendChild(createText(parent, text));
  }

  /**
   * Closes the nearest open target (<p> or <a>) and everything above it, as the parser does before a block or
   * a nested link, when nothing it closes would be reopened (formatting elements) or moved (a block inside
   * the link). Their end tags come later and mean something else then (strayEndTag).
   */
  private closeEarly(target: 'P' | 'A'): boolean {
    let at = this.nodes.length - 1;
    while (at > 0 && this.nodes[at].nodeName !== target) {
      const tag = this.nodes[at].nodeName;
      if (FORMATTING.has(tag) || SPECIAL.has(tag) || this.flags[at] & IMPLIED) return false;
      at--;
    }
    if (at === 0) return false;
    let closing = this.nodes.length - at;
    this.nodes.length = this.flags.length = this.modes.length = at;
    for (let i = this.events.length - 1; closing > 0; i--) {
      if (this.events[i] !== OPEN) continue;
      this.events[i] = CLOSED_EARLY;
      closing--;
    }
    return true;
  }

  /** The end tag of an element closed early: ignored, or </p> making an empty paragraph; else given up. */
  private strayEndTag(tag: string): void {
    const top = this.nodes.length - 1;
    const mode = this.modes[top];
    if (!(mode === BODY || mode === CELL || mode === CAPTION)) return this.fail();
    if (tag === 'P') {
      if (this.flags[top] & P_IN_SCOPE) return this.fail(); // it would close that paragraph
      const parent = this.nodes[top];
      parent.appendChild(createElement(parent, 'P', null));
      return;
    }
    if (tag === 'A' && this.flags[top] & A_OPEN) return this.fail(); // it would close that link
    // Any other end tag closes the nearest open element of its name unless a special element comes first.
    for (let i = top; i > 0 && !SPECIAL.has(this.nodes[i].nodeName); i--) if (this.nodes[i].nodeName === tag) return this.fail();
  }

  private push(tag: string, attributes: string[] | null, extra: number): void {
    const top = this.nodes.length - 1;
    const parent = this.nodes[top];
    const el = createElement(parent, tag, attributes);
    parent.appendChild(el);
    this.nodes.push(el);
    this.flags.push(inherit(this.flags[top], tag) | extra);
    this.modes.push(MODES[tag] ?? this.modes[top]);
  }

  private openEvent(kind: number, tag: string): void {
    this.events.push(kind);
    this.eventTags.push(tag);
  }

  private pop(): void {
    if (this.nodes.length === 1) return this.fail(); // unbalanced events: never from the sanitizer
    this.nodes.pop();
    this.flags.pop();
    this.modes.pop();
  }

  private fail(): void {
    this.failed = true;
  }
}

/** The flags of a new entry for tag on top of an entry with the given flags. */
function inherit(below: number, tag: string): number {
  let flags = below & ~IMPLIED;
  if (tag === 'P') flags |= P_IN_SCOPE;
  else if (SCOPE_LIMITS.has(tag)) flags &= ~(P_IN_SCOPE | RUBY_IN_SCOPE);
  if (tag === 'A') flags |= A_OPEN;
  else if (tag === 'TD' || tag === 'TH' || tag === 'CAPTION') flags &= ~A_OPEN;
  const special = SPECIAL.has(tag) && tag !== 'ADDRESS' && tag !== 'DIV' && tag !== 'P';
  if (tag === 'LI') flags |= LI_OPEN;
  else if (special) flags &= ~LI_OPEN;
  if (tag === 'DD' || tag === 'DT') flags |= DD_OPEN;
  else if (special) flags &= ~DD_OPEN;
  if (tag === 'RUBY') flags |= RUBY_IN_SCOPE;
  return flags;
}

// Upper-case names of the tags we emit, as string literals: V8 compares two such (internalized) strings by
// identity, and turndown compares nodeName with lists of names several times per node.
const UPPER = new Map<string, string>();
for (const tag of [
  'A', 'ABBR', 'B', 'BDI', 'BIG', 'BLOCKQUOTE', 'BR', 'CAPTION', 'CITE', 'CODE', 'COL', 'COLGROUP', 'DD', 'DEL', 'DFN',
  'DIV', 'DL', 'DT', 'EM', 'FIGCAPTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'I', 'IMG', 'INS', 'KBD', 'LI',
  'MARK', 'METER', 'OL', 'OUTPUT', 'P', 'PRE', 'PROGRESS', 'Q', 'RP', 'RT', 'RUBY', 'S', 'SAMP', 'SMALL', 'STRIKE',
  'STRONG', 'SUB', 'SUMMARY', 'SUP', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TIME', 'TR', 'TT', 'U', 'UL',
  'VAR', 'WBR',
]) {
  UPPER.set(tag.toLowerCase(), tag);
}

function upper(name: string): string {
  let result = UPPER.get(name);
  if (result === undefined) {
    result = name.toUpperCase();
    if (UPPER.size < 1000) UPPER.set(name, result); // bounded: custom element names are unlimited
  }
  return result;
}

// The parser turns CR LF and lone CR into LF and replaces NUL in attribute values.
function normalizeAttribute(value: string, index: number): string {
  if (index % 2 === 0) return value;
  if (value.indexOf('\r') >= 0) value = value.replace(/\r\n?/g, '\n');
  if (value.indexOf('\0') >= 0) value = value.replace(/\0/g, '\ufffd');
  return value;
}
