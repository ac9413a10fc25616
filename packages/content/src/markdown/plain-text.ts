// Markdown for non-HTML bodies. Prose in text/plain is passed through as-is (after trimming and normalising line
// ends): Markdown renders it readably, and escaping every *, _ or # would make the raw Markdown harder to read.
// Text that looks like source code, config or data goes into a fence so its layout survives. JSON is always
// fenced, pretty-printed when it parses.

export function textToMarkdown(text: string): string {
  const body = normalizeNewlines(text).replace(/^\n+|\s+$/g, '');
  if (body === '') return '';
  return looksLikeCode(body) ? fence(body, '') : body;
}

export function jsonToMarkdown(text: string): string {
  const raw = normalizeNewlines(text).trim();
  if (raw === '') return '';
  let pretty = raw;
  try {
    pretty = JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    // Not valid JSON: keep the bytes as they came.
  }
  return fence(pretty, 'json');
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A fence longer than any backtick run inside, so the content cannot close it early. */
function fence(body: string, language: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const marker = '`'.repeat(Math.max(3, longest + 1));
  return `${marker}${language}\n${body}\n${marker}`;
}

// Code and config share traits prose rarely has: lines ending in ; { } ( or ,, lines led by indentation, and
// a high share of brackets and operators.
function looksLikeCode(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 3) return false;
  let codeish = 0;
  for (const line of lines) {
    if (/[;{}(,]\s*$/.test(line) || /^\s*[}\])]/.test(line) || /^(\t| {2,})\S/.test(line)) codeish++;
  }
  const symbols = (text.match(/[{}[\]();=<>]/g) ?? []).length;
  return codeish / lines.length > 0.4 || symbols / text.length > 0.05;
}
