/**
 * The words of the render-fidelity matrix. Every page's article is built from numbered parts, and every part
 * carries one marker word (`mx<page><part>`, letters and digits only, so Markdown never escapes it): a render is
 * whole when every marker of its page is in the Markdown and no placeholder text is left.
 */
const SENTENCES = [
  'The harbour master logged the morning tide at six forty-two and sent the pilot boat out to the fairway buoy.',
  'Crews on the inner quay finished loading timber before the wind backed to the south-west and freshened.',
  'A research vessel waited at berth three for a replacement winch motor that came up by lorry from the coast road.',
  'The fuel dock reopened after the new pumps passed inspection, and the queue of fishing boats cleared by noon.',
  'Dredging in the west channel moved the marker buoy forty metres east; skippers were told to read the notice.',
  'Night watch reported fog banks rolling in from the estuary, thick enough to sound the horn every two minutes.',
  'The slipway stays closed for resurfacing, so small craft are lifted out with the mobile crane on the north pier.',
  'Visiting yachts may raft up three deep on the pontoon, paying the daily rate at the office above the chandlery.',
];

export const marker = (page: string, part: number) => `mx${page.replace(/[^a-z0-9]/g, '')}p${part}`;

/** One paragraph of a page's article, with its marker. */
export function partText(page: string, part: number): string {
  const a = SENTENCES[part % SENTENCES.length];
  const b = SENTENCES[(part + 3) % SENTENCES.length];
  return `Report ${part} (${marker(page, part)}): ${a} ${b}`;
}

export const partHtml = (page: string, part: number) => `<p>${partText(page, part)}</p>`;

/** The article of a page: a heading and `parts` paragraphs (parts numbered from `from`). */
export function articleHtml(page: string, parts: number, from = 1): string {
  const ps = Array.from({ length: parts }, (_, i) => partHtml(page, from + i)).join('\n');
  return `<article><h1>Harbour log: ${page}</h1>\n${ps}\n</article>`;
}

/** The site chrome around every matrix page: navigation, a cookie note and a footer, as real pages have. */
export function chrome(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;margin:0}.skeleton{background:#ddd;height:1em;margin:.5em 0}.spacer{height:2400px}</style>
${head}</head>
<body>
<header><nav><a href="/matrix/">Matrix</a> <a href="/matrix/static">Static</a> <a href="/about">About the harbour</a></nav></header>
${body}
<footer><p>Harbour Authority, Quay Road. All tide times are local.</p></footer>
</body></html>`;
}

export interface Wholeness {
  whole: boolean;
  /** Marker words of parts that did not come back. */
  missing: string[];
  /** Placeholder texts still there. */
  leftovers: string[];
}

/** Whether `text` (Markdown, or a DOM's visible text) holds every part of `page` and none of its placeholders. */
export function judge(page: { name: string; parts: number; placeholders: string[] }, text: string, parts = page.parts): Wholeness {
  const missing = Array.from({ length: parts }, (_, i) => marker(page.name, i + 1)).filter((m) => !text.includes(m));
  const leftovers = page.placeholders.filter((p) => text.includes(p));
  return { whole: missing.length === 0 && leftovers.length === 0, missing, leftovers };
}
