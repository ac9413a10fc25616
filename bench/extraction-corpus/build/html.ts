// Helpers for the corpus pages: escaping the way CMSes write text, a deterministic PRNG, page furniture.

export const NBSP = '\u00a0';

/** Text as HTML: &, < and > escaped. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');
}

/** An attribute value (in double quotes). */
export function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

const NAMED: Record<string, string> = {
  '\u2019': '&rsquo;', '\u2018': '&lsquo;', '\u201c': '&ldquo;', '\u201d': '&rdquo;', '\u2013': '&ndash;',
  '\u2014': '&mdash;', '\u2026': '&hellip;', '\u00e9': '&eacute;', '\u00e8': '&egrave;', '\u00e0': '&agrave;',
  '\u00e7': '&ccedil;', '\u00fc': '&uuml;', '\u00f6': '&ouml;', '\u00e3': '&atilde;', '\u00f5': '&otilde;',
  '\u00a0': '&nbsp;', '\u20ac': '&euro;', '\u00a3': '&pound;', '\u00b7': '&middot;', '\u00d7': '&times;',
};

/** Text as an older CMS writes it: typographic characters as named references, some as numeric ones. */
export function ent(s: string, numeric = false): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\u2019\u2018\u201c\u201d\u2013\u2014\u2026\u00e9\u00e8\u00e0\u00e7\u00fc\u00f6\u00e3\u00f5\u00a0\u20ac\u00a3\u00b7\u00d7]/g, (c) =>
      numeric ? `&#${c.codePointAt(0)};` : NAMED[c],
    );
}

/** mulberry32: the same sequence on every run, so the corpus rebuilds byte for byte. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Thousands separators, the en-US way. */
export function thousands(n: number, sep = ','): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

export function slug(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A small inline icon, the way icon systems paste them into markup. */
export function icon(name: string, cls = `icon icon-${name}`): string {
  const paths: Record<string, string> = {
    star: 'M8 .5l2.3 4.9 5.2.6-3.9 3.6 1 5.2L8 12.3 3.4 14.8l1-5.2L.5 6l5.2-.6z',
    tag: 'M1 1h6l8 8-6 6-8-8z',
    clock: 'M8 0a8 8 0 100 16A8 8 0 008 0zm1 8.4V3H7v6.2l4.2 2.5 1-1.7z',
    pin: 'M8 0C4.7 0 2 2.6 2 5.9 2 10.3 8 16 8 16s6-5.7 6-10.1C14 2.6 11.3 0 8 0zm0 8a2 2 0 110-4 2 2 0 010 4z',
    bed: 'M0 9h16v5h-2v-2H2v2H0zm2-5h5v4H2z',
    bath: 'M1 8h14v2a4 4 0 01-4 4H5a4 4 0 01-4-4zm2-6a2 2 0 014 0v1H5V2z',
    area: 'M0 0h6v2H2v4H0zm10 0h6v6h-2V2h-4zM0 10h2v4h4v2H0zm14 0h2v6h-6v-2h4z',
    download: 'M7 0h2v9l3-3 1.4 1.4L8 12.8 2.6 7.4 4 6l3 3zM0 14h16v2H0z',
    play: 'M3 1l11 7-11 7z',
    heart: 'M8 15S0 10 0 4.5A4.5 4.5 0 018 2a4.5 4.5 0 018 2.5C16 10 8 15 8 15z',
    camera: 'M5 1h6l1 2h4v11H0V3h4zm3 3a4 4 0 100 8 4 4 0 000-8z',
    search: 'M6.5 0a6.5 6.5 0 015.2 10.4l4 4-1.4 1.4-4-4A6.5 6.5 0 116.5 0zm0 2a4.5 4.5 0 100 9 4.5 4.5 0 000-9z',
    check: 'M6 11.2L1.8 7 .4 8.4 6 14 15.6 4.4 14.2 3z',
    menu: 'M0 2h16v2H0zm0 5h16v2H0zm0 5h16v2H0z',
    arrow: 'M5 1l7 7-7 7-1.4-1.4L9.2 8 3.6 2.4z',
  };
  return `<svg class="${cls}" aria-hidden="true" focusable="false" viewBox="0 0 16 16" width="16" height="16"><path d="${paths[name] ?? paths.tag}"/></svg>`;
}

/** A 1×1 transparent GIF: what lazy-loading scripts put in src until the real image loads. */
export const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** A page: doctype, head with the usual noise, then the body as given. */
export function doc(o: { lang?: string; title: string; head?: string; bodyAttrs?: string; body: string }): string {
  return `<!DOCTYPE html>
<html lang="${o.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}</title>
<link rel="preconnect" href="https://fonts.example.test">
<link rel="stylesheet" href="/assets/app.css?v=3f9a1c">
${o.head ?? ''}
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());</script>
</head>
<body${o.bodyAttrs ? ` ${o.bodyAttrs}` : ''}>
${o.body}
<script src="/assets/app.js?v=3f9a1c" defer></script>
</body>
</html>
`;
}

/** A list of links, as navs and footers have them. */
export function links(items: [string, string][], o: { ul?: string; li?: string; a?: string } = {}): string {
  const li = o.li ? ` class="${o.li}"` : '';
  const a = o.a ? ` class="${o.a}"` : '';
  return `<ul${o.ul ? ` class="${o.ul}"` : ''}>\n${items.map(([label, href]) => `      <li${li}><a${a} href="${attr(href)}">${ent(label)}</a></li>`).join('\n')}\n    </ul>`;
}

/** A cookie banner: every real page has one, usually near the end of the body. */
export function cookieBanner(cls: string): string {
  return `<div class="${cls}" role="dialog" aria-live="polite" aria-label="Cookie consent">
  <p>We use cookies to improve your experience and for analytics. You can change your choices at any time.</p>
  <button type="button" data-consent="accept">Accept all</button> <button type="button" data-consent="reject">Reject non-essential</button>
  <a href="/privacy#cookies">Cookie settings</a>
</div>`;
}
