// Inline rules: emphasis, strong and strikethrough that render as what the page showed, hard line breaks,
// superscript and subscript, images and links with nothing to show.
import type TurndownService from 'turndown';
import { escapeMarkdownText, LINK_MARK } from './escape.ts';
import {
  AMBIGUOUS, BLOCK, BREAK, DELIMITER, EMPHASIS, NOTHING, PUNCT, SPACE, STRIKE, STRONG, codeEdges, hasContentAfter, innerEdge, isBlockNode,
  kindOf, kindsAbove, linksSomewhere, outerEdge, textEdge, writesNothing,
} from './nodes.ts';

type Node = TurndownService.Node;

// "*" rather than "_" for emphasis: CommonMark does not read "_" as emphasis inside a word (un_believ_able).
const DELIMITERS: Record<number, string> = { [EMPHASIS]: '*', [STRONG]: '**', [STRIKE]: '~~' };
// Kinds whose delimiters are made of the same character: nested, they form one delimiter run.
const SAME_CHARACTER: Record<number, number> = { [EMPHASIS]: EMPHASIS | STRONG, [STRONG]: EMPHASIS | STRONG, [STRIKE]: STRIKE };

export function addInlineRules(service: TurndownService): void {

  service.addRule('emphasisFlanked', {
    filter: ['em', 'i', 'strong', 'b', 'del', 's', 'strike'],
    replacement: (content, node) => (inCode(node) ? content : emphasis(restoreBreak(content), node)),
  });

  // A hard break is a backslash before the newline (trailing spaces do not survive trimming, and are
  // invisible). At the end of its block a backslash would print, so the break is left out there. In code it
  // is a newline, which the code span turns into a space.
  service.addRule('hardLineBreak', {
    filter: 'br',
    replacement: (_content, node) => (!inCode(node) && hasContentAfter(node) ? '\\\n' : '\n'),
  });

  // Inline code: adjacent <code> elements are one span (`a``b` would read as one span with `` in it), a
  // code element holding just a link becomes a link around the span, and markup inside code is its text.
  service.addRule('inlineCode', {
    filter: (node) => node.nodeName === 'CODE' && !(node.parentNode?.nodeName === 'PRE' && node.previousSibling === null && node.nextSibling === null),
    replacement: (content, node) => {
      if (node.parentNode !== null && inCode(node.parentNode)) return content;
      const run = codeRun(node);
      if (run[0] !== node) return '';
      let code = content;
      for (let i = 1; i < run.length; i++) code += run[i].textContent ?? '';
      if (codeAsText(run)) return escapeMarkdownText(code.replace(/\s+/g, ' '));
      const link = run.length === 1 ? soleLink(node) : null;
      if (link === null) return codeSpan(code);
      const span = `[${codeSpan(code)}](${linkDestination(link.getAttribute?.('href') ?? '')}${titlePart(link.getAttribute?.('title') ?? '')})`;
      return mayFollowBang(node) ? LINK_MARK + span : span;
    },
  });

  // Superscript and subscript as inline HTML: x<sup>2</sup> is what GFM renderers show as x², and stays
  // readable where HTML is not rendered, whereas x^2^ is an extension most renderers print as it is, and
  // flattening (x2) changes the text. Every other "<" in the text is escaped, so these tags are unambiguous.
  service.addRule('superscript', {
    filter: ['sup', 'sub'],
    replacement: (content, node) => {
      if ((node.textContent ?? '').trim() === '' && !hasImage(node)) return restoreBreak(content); // a line break, say
      if (inCode(node)) return content;
      const tag = node.nodeName.toLowerCase();
      // Breaks and whitespace at the edges go outside: "<sup>" alone on a line starting a block would begin
      // an HTML block.
      const [lead, body, trail] = splitEdges(restoreBreak(content));
      return `${lead}<${tag}>${body}</${tag}>${trail}`;
    },
  });

  service.addRule('image', {
    filter: (node) => node.nodeName === 'IMG' && !/^\s*data:/i.test(node.getAttribute?.('src') ?? ''),
    replacement: (_content, node) => {
      const src = node.getAttribute?.('src') ?? '';
      if (src === '') return '';
      if (inCode(node)) return node.getAttribute?.('alt') ?? '';
      const alt = escapeMarkdownText(node.getAttribute?.('alt') ?? '');
      const title = node.getAttribute?.('title') ?? '';
      return `![${alt}](${linkDestination(src)}${titlePart(title)})`;
    },
  });

  // Inline data: images would put kilobytes of base64 into the Markdown; keep their alt text only.
  service.addRule('dataImage', {
    filter: (node) => node.nodeName === 'IMG' && /^\s*data:/i.test(node.getAttribute?.('src') ?? ''),
    replacement: (_content, node) => escapeMarkdownText(node.getAttribute?.('alt') ?? ''),
  });

  // A "!" just before a link would make it an image: such links are marked (LINK_MARK, a noncharacter that
  // escaping removes from text) and the "!" escaped once the whole Markdown is written (resolveLinkMarks).
  service.addRule('inlineLink', {
    filter: (node) => node.nodeName === 'A' && linksSomewhere(node),
    replacement: (content, node) => {
      if (inCode(node)) return content;
      const title = node.getAttribute?.('title') ?? '';
      const link = `[${content}](${linkDestination(node.getAttribute?.('href') ?? '')}${titlePart(title)})`;
      return mayFollowBang(node) ? LINK_MARK + link : link;
    },
  });

  // A link with nothing to show (its icon or button was dropped) would print as "[](url)".
  service.addRule('emptyLink', {
    filter: (node) => node.nodeName === 'A' && writesNothing(node),
    replacement: () => '',
  });

  // Not a rule: turndown asks every rule's filter before it reads a node's flanking whitespace, and this one
  // corrects it. turndown takes the whitespace at the edges of an inline element's text to be at the edges of
  // its Markdown and moves it outside, but when the element starts (or ends) with an image or a line break,
  // that whitespace is inside, after the image: it would be written twice. Added last, so asked first.
  service.addRule('flankingWhitespaceFix', {
    filter: (node) => {
      const flanking = (node as { flankingWhitespace?: { leading: string; trailing: string } }).flankingWhitespace;
      if (flanking !== undefined && flanking !== null && (flanking.leading !== '' || flanking.trailing !== '')) {
        // With no text at all, turndown puts all the whitespace before the element: it stays where it is.
        const blank = (node.textContent ?? '').trim() === '';
        if (flanking.leading !== '' && (startsWithVoid(node, false) || (blank && hasVoid(node)))) flanking.leading = '';
        if (flanking.trailing !== '' && startsWithVoid(node, true)) flanking.trailing = '';
      }
      return false;
    },
    replacement: () => '',
  });
}

function hasImage(node: Node): boolean {
  const find = (node as { getElementsByTagName?: (name: string) => ArrayLike<unknown> }).getElementsByTagName;
  return find !== undefined && find.call(node, 'img').length > 0;
}

function hasVoid(node: Node): boolean {
  const find = (node as { getElementsByTagName?: (name: string) => ArrayLike<unknown> }).getElementsByTagName;
  return find !== undefined && (find.call(node, 'img').length > 0 || find.call(node, 'br').length > 0);
}

/** Whether the first (or last) thing an inline element writes is an image or a line break, not text. */
function startsWithVoid(node: Node, atEnd: boolean): boolean {
  for (let current: Node | null = atEnd ? node.lastChild : node.firstChild; current !== null; ) {
    if (current.nodeType === 3) {
      if ((current.nodeValue ?? '') !== '') return false;
    } else if (current.nodeName === 'IMG' || current.nodeName === 'BR') return true;
    else if (current.nodeType === 1 && current.firstChild !== null) {
      current = atEnd ? current.lastChild : current.firstChild;
      continue;
    }
    current = atEnd ? current.previousSibling : current.nextSibling;
  }
  return false;
}

/** Inside a <code> (turndown marks the nodes it converts there). */
function inCode(node: Node): boolean {
  return (node as { isCode?: boolean }).isCode === true;
}

// Adjacent code elements, recorded for every member when the first is converted.
const codeRuns = new WeakMap<Node, Node[]>();

function codeRun(node: Node): Node[] {
  const known = codeRuns.get(node);
  if (known !== undefined) return known;
  const run = [node];
  // Whitespace between two code elements keeps them apart (turndown moves edge whitespace out of each).
  const touching = (a: Node, b: Node) => !/\s$/.test(a.textContent ?? '') && !/^\s/.test(b.textContent ?? '');
  for (let s = node.nextSibling; s !== null; s = s.nextSibling) {
    if (s.nodeName === 'CODE' && !writesNothing(s) && touching(run[run.length - 1], s)) run.push(s);
    else if (!skippable(s)) break;
  }
  for (const member of run) codeRuns.set(member, run);
  return run;
}

/**
 * Whether a run of code elements is written as text (the text kept, its code style lost): touching the next
 * code span through elements that write nothing, the backticks would merge.
 */
function codeAsText(run: Node[]): boolean {
  const last = run[run.length - 1];
  if (!/\s$/.test(last.textContent ?? '') && startsWithCode(last)) return true;
  // In a link, "]" in code could end a line's "[label]:" (a link reference definition).
  return insideLink(run[0]) && run.some((code) => (code.textContent ?? '').indexOf(']') >= 0);
}

function insideLink(node: Node): boolean {
  for (let parent = node.parentNode; parent !== null && !isBlockNode(parent); parent = parent.parentNode) if (parent.nodeName === 'A') return true;
  return false;
}

codeEdges.of = (code, atEnd) => {
  if (code.parentNode !== null && inCode(code.parentNode)) return textEdge(code.textContent ?? '', atEnd);
  const run = codeRun(code);
  if (run[0] !== code) return NOTHING; // the first member writes the run
  if (!codeAsText(run)) return PUNCT;
  return textEdge(((atEnd ? run[run.length - 1] : code).textContent ?? '').trim(), atEnd);
};

/**
 * Whether the Markdown right after node starts with a code span: looking past siblings that write nothing
 * and into and out of inline elements that write no markup there.
 */
function startsWithCode(node: Node): boolean {
  let current = node;
  for (;;) {
    let s = current.nextSibling;
    while (s !== null && skippable(s)) s = s.nextSibling;
    if (s === null) {
      const parent = current.parentNode;
      if (parent === null || isBlockNode(parent) || !writesNoMarkup(parent)) return false;
      current = parent;
      continue;
    }
    // Descend to the first thing the sibling writes.
    for (let inner: Node | null = s; inner !== null; ) {
      if (inner.nodeType !== 1) return false;
      if (inner.nodeName === 'CODE') return !writesNothing(inner) && !/^\s/.test(inner.textContent ?? '');
      if (isBlockNode(inner) || !writesNoMarkup(inner)) return false;
      let child: Node | null = inner.firstChild;
      while (child !== null && skippable(child)) child = child.nextSibling;
      inner = child;
    }
    return false;
  }
}

/**
 * Whether an inline element may write no markup at its edges: not a link, tag or image. Emphasis counts as
 * markup-free, as it may be written without delimiters; asking would make this depend on emphasis decisions
 * that depend on how the code is written.
 */
function writesNoMarkup(node: Node): boolean {
  return !(node.nodeName === 'A' || node.nodeName === 'SUP' || node.nodeName === 'SUB' || node.nodeName === 'IMG' || node.nodeName === 'BR');
}

/** The link a code element holds and nothing else, if so. */
function soleLink(code: Node): Node | null {
  let link: Node | null = null;
  for (let child = code.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 3 && (child.nodeValue ?? '').trim() === '') continue;
    if (link !== null || child.nodeName !== 'A' || !linksSomewhere(child)) return null;
    link = child;
  }
  return link;
}

/** A code span: delimited by a backtick run longer than any inside, padded when the code starts or ends
 * with a backtick or is space-padded (as turndown writes them). */
function codeSpan(code: string): string {
  const text = code.replace(/\r?\n|\r/g, ' ');
  if (text.trim() === '') return text;
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const delimiter = '`'.repeat(longest + 1);
  const pad = /^`|^ .*?[^ ].* $|`$/.test(text) ? ' ' : '';
  return delimiter + pad + text + pad + delimiter;
}

/** Escapes "!" before marked links and drops the marks: O(length), and only on Markdown with links after "!". */
export function resolveLinkMarks(markdown: string): string {
  if (markdown.indexOf(LINK_MARK) < 0) return markdown;
  return markdown.replace(LINK_MARK_AFTER_BANG, (mark) => (mark.length === 2 ? '\\!' : ''));
}

const LINK_MARK_AFTER_BANG = new RegExp(`!?${LINK_MARK}`, 'g');

/** Whether the text just before a link may end with "!" (looking through the inline elements it starts). */
function mayFollowBang(link: Node): boolean {
  for (let current = link; ; ) {
    const previous = current.previousSibling;
    if (previous !== null) return (previous.nodeType === 3 ? (previous.nodeValue ?? '') : (previous.textContent ?? '')).endsWith('!');
    const parent = current.parentNode;
    if (parent === null || isBlockNode(parent)) return false;
    current = parent;
  }
}

function titlePart(title: string): string {
  return title === '' ? '' : ` "${title.replace(/["\\]/g, '\\$&')}"`;
}

/** turndown's escaping of link destinations: brackets and parentheses escaped, <...> around spaces. */
function linkDestination(url: string): string {
  const escaped = url.replace(/[<>()]/g, '\\$&');
  return escaped.indexOf(' ') >= 0 ? `<${escaped}>` : escaped;
}

// A run: adjacent siblings of one kind ("<b>a</b><b>b</b>"), written as one span (**ab**), since "**a****b**"
// renders the middle asterisks as text. Recorded for every member when first looked at.
interface Run {
  first: Node;
  last: Node;
  delimited: boolean;
}

const runs = new WeakMap<Node, Run>();

/**
 * turndown trims an inline element's content when the element has whitespace at its edges, which cuts the
 * newline off a hard break at its end ("a\\\n" becomes "a\\", an escaped delimiter). Text never ends in an odd
 * run of backslashes (they are escaped in pairs), so such a content gets its newline back.
 */
export function restoreBreak(content: string): string {
  let slashes = 0;
  while (slashes < content.length && content.charCodeAt(content.length - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1 ? `${content}\n` : content;
}

function emphasis(content: string, node: Node): string {
  if (content.trim() === '') return content; // a line break, say
  const kind = kindOf(node);
  if (kindsAbove(node) & kind) return content; // already inside the same emphasis: nothing to add
  const run = runOf(node);
  const open = run.delimited && run.first === node;
  const close = run.delimited && run.last === node;
  if (!open && !close) return content;
  // Whitespace and line breaks at the edges go outside: a delimiter next to them does not flank the text.
  const [lead, body, trail] = splitEdges(content, open, close);
  if (body.trim() === '') return content;
  const delimiter = DELIMITERS[kind];
  return lead + (open ? delimiter : '') + body + (close ? delimiter : '') + trail;
}

/** A Markdown string as its leading whitespace and breaks, the rest, and its trailing whitespace and breaks. */
function splitEdges(content: string, start = true, end = true): [string, string, string] {
  const lead = start ? (/^(?:\\\n|\s)+/.exec(content)?.[0] ?? '') : '';
  const stop = end ? Math.max(lead.length, trailingSpace(content)) : content.length;
  return [lead, content.slice(lead.length, stop), content.slice(stop)];
}

/** Where the whitespace and line breaks at the end of a Markdown string begin (a backslash before a newline
 * is a hard break only when unescaped). */
function trailingSpace(text: string): number {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) {
    if (text.charCodeAt(end - 1) === 10) {
      let slashes = 0;
      while (end - 2 - slashes >= 0 && text.charCodeAt(end - 2 - slashes) === 92) slashes++;
      if (slashes % 2 === 1) end--;
    }
    end--;
  }
  return end;
}

function runOf(node: Node): Run {
  const known = runs.get(node);
  if (known !== undefined) return known;
  const kind = kindOf(node);
  let first = node;
  for (let s = node.previousSibling; s !== null; s = s.previousSibling) {
    if (kindOf(s) === kind && !writesNothing(s)) first = s;
    else if (!skippable(s)) break;
  }
  let last = first;
  const members = [first];
  for (let s = first.nextSibling; s !== null; s = s.nextSibling) {
    if (kindOf(s) === kind && !writesNothing(s)) {
      last = s;
      members.push(s);
    } else if (!skippable(s)) break;
  }
  const run: Run = { first, last, delimited: false };
  for (const member of members) runs.set(member, run);
  run.delimited = flanked(first, last, kind);
  return run;
}

/** Siblings that write nothing, not even a space, do not separate the members of a run. */
function skippable(node: Node): boolean {
  if (node.nodeType === 3) return (node.nodeValue ?? '') === '';
  return node.nodeType !== 1 || (node.nodeName !== 'BR' && node.nodeName !== 'IMG' && node.textContent === '' && writesNothing(node));
}

/**
 * Whether delimiters around the run render as emphasis: CommonMark's flanking rules for "*" and "~~" (which may
 * split words). Punctuation just inside a delimiter needs whitespace or punctuation just outside it:
 * foo*"bar"*baz is not emphasis. Where they would print as text, the emphasis is left out and the text kept.
 */
function flanked(first: Node, last: Node, kind: number): boolean {
  const merge = SAME_CHARACTER[kind];
  const start = innerEdge(first, false, merge);
  const end = innerEdge(last, true, merge);
  if (start.edge === NOTHING || end.edge === NOTHING) return false;
  const before = start.passed !== NOTHING ? start.passed : outerEdge(first, false, merge, writesDelimiter);
  const after = end.passed !== NOTHING ? end.passed : outerEdge(last, true, merge, writesDelimiter);
  if (!opens(before, start.edge) || !opens(after, end.edge)) return false;
  // Inside emphasis written with the same character, an opening run that could also close would close the
  // enclosing one instead ("**a *"b"* c**" pairs the wrong asterisks): it must not follow a word or
  // punctuation that it could close after.
  return !(kindsAbove(first) & merge) || !mayClose(before, start.edge);
}

/** Whether a delimiter run between these characters could close emphasis (is right-flanking). */
function mayClose(before: number, after: number): boolean {
  if (before === SPACE || before === BREAK || before === BLOCK) return false;
  if (before === PUNCT || before === DELIMITER) return after === SPACE || after === BREAK || after === BLOCK || after === PUNCT || after === AMBIGUOUS;
  return true;
}

function opens(outside: number, inside: number): boolean {
  if (inside === SPACE || inside === BREAK || inside === BLOCK || outside === DELIMITER) return false;
  if (inside !== PUNCT && inside !== AMBIGUOUS) return true;
  return outside === SPACE || outside === BREAK || outside === BLOCK || outside === PUNCT;
}

/** Whether an emphasis element writes its delimiter at the start (or end): asked about a node's parents. */
function writesDelimiter(node: Node, atEnd: boolean): boolean {
  if (kindsAbove(node) & kindOf(node)) return false;
  const run = runOf(node);
  return run.delimited && (atEnd ? run.last === node : run.first === node);
}
