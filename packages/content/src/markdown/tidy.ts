// The last pass over turndown's output: trailing spaces and tabs of every line dropped, at most one blank line
// in a row, ends trimmed. Inside fenced code, blank lines are the code's own and stay as they are.

import { trimLines } from './block-rules.ts';

// A fence we wrote: indentation or quote markers, three or more backticks, an info string without backticks
// (text never starts a line with a backtick: it is escaped).
const FENCE_OPEN = /^(?:[ ]*>)*[ ]*(`{3,})[^`]*$/;
const FENCE_CLOSE = /^(?:[ ]*>)*[ ]*(`{3,})$/;

export function tidyMarkdown(markdown: string): string {
  // The fallback stays for text with CR, U+2028 or U+2029, which end lines for $ too.
  if (markdown.indexOf('\r') >= 0 || markdown.indexOf('\u2028') >= 0 || markdown.indexOf('\u2029') >= 0) {
    return trimLines(markdown.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n'));
  }
  let out = '';
  let breaks = 0;
  let fence = ''; // the open fence's backticks, '' outside code
  for (let start = 0; start <= markdown.length; ) {
    let end = markdown.indexOf('\n', start);
    if (end < 0) end = markdown.length;
    let last = end;
    while (last > start && (markdown.charCodeAt(last - 1) === 32 || markdown.charCodeAt(last - 1) === 9)) last--;
    if (last > start) {
      const line = markdown.slice(start, last);
      out += (breaks === 0 ? '' : breaks === 1 || fence !== '' ? '\n'.repeat(breaks) : '\n\n') + line;
      breaks = 0;
      if (line.indexOf('```') >= 0) fence = nextFence(line, fence);
    }
    if (end < markdown.length) breaks++;
    start = end + 1;
  }
  return trimLines(out);
}

function nextFence(line: string, open: string): string {
  if (open === '') return FENCE_OPEN.exec(line)?.[1] ?? '';
  // Inside code, only a bare fence at least as long as the opening one closes it.
  const close = FENCE_CLOSE.exec(line)?.[1];
  return close !== undefined && close.length >= open.length ? '' : open;
}
