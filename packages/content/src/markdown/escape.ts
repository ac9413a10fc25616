// Escapes page text so that Markdown renders it as the same characters (CommonMark and GFM). Anywhere in a text:
// \ * _ ` [ ] ~ (emphasis, code, links, strikethrough), < where it could open a tag or an autolink, & where it
// could start an entity (U+FDD0, a noncharacter, is dropped: it marks links, see inline-rules.ts).
// At the start of a text, which may start a line (after a block start or a hard break):
// list markers (- + 1. 1)), headings (#), quotes (>), setext underlines (=) and table delimiter rows (|:-).
// Starts of texts that do not start a line get an escape they do not need, which renders the same.

// A text may end where the next node's Markdown goes on: "<" and "&" at its end are escaped too.
const INLINE = /[\\*_`[\]~]|<(?=[A-Za-z/!?]|$)|&(?=#?[A-Za-z0-9]*(?:;|$))/g;
export const LINK_MARK = '\ufdd0';
const LINE_START = /^[-+=>#0-9|:]/;
const HEADING_MARK = /^#{1,6}(?= |\t|$)/;
const ORDERED_MARK = /^(\d{1,9})([.)])(?= |\t|$)/;
const DELIMITER_ROW = /^[|:][|: -]*$/;

export function escapeMarkdownText(text: string): string {
  let out = hasInlineSpecial(text) ? text.replace(INLINE, '\\$&') : text;
  if (out.indexOf(LINK_MARK) >= 0) out = out.replaceAll(LINK_MARK, '');
  if (!LINE_START.test(out)) return out;
  const first = out.charCodeAt(0);
  if (first === 45 /* - */ || first === 43 /* + */ || first === 61 /* = */ || first === 62 /* > */) return `\\${out}`;
  if (first === 35 /* # */) return HEADING_MARK.test(out) ? `\\${out}` : out;
  if (first === 124 /* | */ || first === 58 /* : */) return DELIMITER_ROW.test(out) && out.indexOf('-') >= 0 ? `\\${out}` : out;
  out = out.replace(ORDERED_MARK, '$1\\$2');
  return out;
}

// Most text has none of these: native substring scans find that out much faster than a regular expression.
function hasInlineSpecial(text: string): boolean {
  return (
    text.indexOf('\\') >= 0 || text.indexOf('*') >= 0 || text.indexOf('_') >= 0 || text.indexOf('`') >= 0 ||
    text.indexOf('[') >= 0 || text.indexOf(']') >= 0 || text.indexOf('~') >= 0 || text.indexOf('<') >= 0 ||
    text.indexOf('&') >= 0
  );
}
