import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, doc, esc, icon, thousands } from './html.ts';
import { attribute, list, template, text, type SiteBuild } from './site.ts';

// A package registry's search results. v2 is a rebuild with hashed CSS-module class names (_8fb7a1…),
// <article> results inside a wrapper <div>, the version before the publisher, the stats moved above the
// description, keywords as bare links, and a sponsored result with a name, a description and keywords.

const PAGE_URL = 'https://registry.example.test/search?q=markdown%20parser';

interface Pkg {
  name: string;
  description: string;
  keywords: string[];
  publisher: string;
  version: string;
  published: string;
  weekly: number;
  license: string | null;
}

const RAW: [string, string, string[], string, string, string, number, string | null][] = [
  ['markdown-it', 'Markdown parser, done right. 100% CommonMark support, extensions, syntax plugins & high speed', ['markdown', 'parser', 'commonmark', 'markdown-it'], 'puzrin', '14.1.0', '2 years ago', 9812443, 'MIT'],
  ['marked', 'A markdown parser built for speed', ['markdown', 'markup', 'html'], 'jasonbellamy', '15.0.12', '3 months ago', 14520330, 'MIT'],
  ['remark-parse', 'remark plugin to add support for parsing from markdown', ['unified', 'remark', 'plugin', 'markdown', 'mdast'], 'wooorm', '11.0.0', 'a year ago', 11203877, 'MIT'],
  ['micromark', 'small markdown parser in JavaScript', ['commonmark', 'markdown', 'parse', 'tokenize'], 'wooorm', '4.0.2', '5 months ago', 12877013, 'MIT'],
  ['@mdx-js/mdx', 'MDX compiler', ['mdx', 'markdown', 'jsx', 'compile'], 'johno', '3.1.0', '8 months ago', 2641990, 'MIT'],
  ['showdown', 'A Markdown to HTML converter written in Javascript', ['markdown', 'converter'], 'tivie', '2.1.0', '3 years ago', 871204, 'MIT'],
  ['commonmark', 'a strongly specified, highly compatible variant of Markdown', ['markdown', 'commonmark', 'md', 'stmd'], 'jgm', '0.31.2', 'a year ago', 1203568, 'BSD-2-Clause'],
  ['markdown-to-jsx', 'Convert markdown to JSX with ease for React and React-like projects.', ['markdown', 'react', 'jsx'], 'probablyup', '7.7.4', '2 months ago', 3320145, 'MIT'],
  ['snarkdown', ':smirk_cat: A snarky 1kb Markdown parser written in JavaScript', [], 'developit', '2.0.0', '4 years ago', 112087, 'MIT'],
  ['@lezer/markdown', 'Incremental Markdown parser that consumes and emits Lezer trees', ['lezer', 'parser', 'markdown'], 'marijn', '1.4.2', '2 weeks ago', 1560332, 'MIT'],
  ['markdown-yaml-metadata-parser', 'Parse YAML metadata at the top of a markdown file', ['yaml', 'front-matter'], 'ecs', '3.0.0', '2 years ago', 20144, null],
  ['mdast-util-from-markdown', 'mdast utility to parse markdown', ['unist', 'mdast', 'markdown', 'parse'], 'wooorm', '2.0.2', '4 months ago', 13099551, 'MIT'],
  ['markdown-it-anchor', 'Header anchors for markdown-it.', ['markdown-it', 'anchor', 'headers'], 'valeriangalliat', '9.2.0', 'a year ago', 1044520, 'Unlicense'],
  ['@toast-ui/editor', 'GFM Markdown Wysiwyg Editor - Productive and Extensible', ['markdown', 'editor', 'wysiwyg'], 'nhn', '3.2.2', '2 years ago', 98211, 'MIT'],
  ['md4w', 'A Markdown renderer written in Zig & C, compiled to WebAssembly.', ['markdown', 'wasm'], 'ije', '0.2.6', '6 months ago', 40211, 'MIT'],
  ['tiny-markdown-parser', 'Tiny Markdown parser for the browser', [], 'nicolo', '0.1.3', '5 years ago', 3122, null],
  ['markdown-table', 'Generate a markdown (GFM) table', ['text', 'markdown', 'table', 'align'], 'wooorm', '3.0.4', 'a year ago', 6605112, 'MIT'],
  ['@unified-latex/unified-latex-util-parse', 'Tools for parsing LaTeX with unified', ['latex', 'parser'], 'siefkenj', '1.8.2', '3 months ago', 15870, 'MIT'],
  ['gray-matter', 'Parse front-matter from a string or file. Fast, reliable and easy to use.', ['front-matter', 'yaml', 'markdown'], 'jonschlinkert', '4.0.3', '4 years ago', 4982006, 'MIT'],
  ['mdast-util-gfm', 'mdast extension to support GFM (autolink literals, footnotes, strikethrough, tables, tasklists)', ['gfm', 'mdast', 'markdown'], 'wooorm', '3.1.0', '2 months ago', 8712334, 'MIT'],
];

function pkgs(): Pkg[] {
  return RAW.map(([name, description, keywords, publisher, version, published, weekly, license]) => ({
    name, description, keywords, publisher, version, published, weekly, license,
  }));
}

function expected(p: Pkg): ExtractedRecord {
  return {
    name: p.name,
    url: `https://registry.example.test/package/${p.name}`,
    description: p.description,
    keywords: p.keywords.length ? p.keywords : null,
    publisher: p.publisher,
    version: p.version,
    published: p.published,
    downloads: thousands(p.weekly),
    license: p.license,
    spec: `${p.name}@${p.version}`,
  };
}

function resultV1(p: Pkg): string {
  return `  <div class="package-list-item" data-package="${attr(p.name)}">
    <div class="package-list-item__header">
      <a class="package-name" href="/package/${p.name}"><h3>${esc(p.name)}</h3></a>
    </div>
    <p class="package-description">${esc(p.description)}</p>${p.keywords.length ? `
    <ul class="package-keywords">${p.keywords.map((k) => `<li><a href="/search?q=keywords:${encodeURIComponent(k)}">${esc(k)}</a></li>`).join('')}</ul>` : ''}
    <div class="package-meta">
      <a class="publisher" href="/~${p.publisher}"><img src="/avatars/${p.publisher}.png" alt="" width="20" height="20">${p.publisher}</a>
      published <span class="version">${p.version}</span> &bull; <time class="published" title="${p.published}">${p.published}</time>
    </div>
    <div class="package-stats"><span class="downloads" title="Weekly downloads">${icon('download')}${thousands(p.weekly)}</span>${p.license ? ` <span class="license">${p.license}</span>` : ''}</div>
  </div>`;
}

function resultV2(p: Pkg): string {
  return `<article class="_8fb7a1 _2d4e5f" aria-label="${attr(p.name)}"><div class="_c1f0e2">
<div class="_b2a9c4"><a class="_0a1b2c" href="package/${p.name}"><h3 class="_7d8e9f">${esc(p.name)}</h3></a><span class="_f4e3d2">${p.version}</span></div>
<div class="_9a8b7c"><span class="_6f5e4d" title="Weekly downloads">${thousands(p.weekly)}</span>${p.license ? `<span class="_3c2b1a">${p.license}</span>` : ''}</div>
<p class="_5e6f7a">${esc(p.description)}</p>${p.keywords.length ? `
<div class="_1b2c3d">${p.keywords.map((k) => `<a class="_4d5e6f" href="search?q=keywords:${encodeURIComponent(k)}">${esc(k)}</a>`).join(' ')}</div>` : ''}
<div class="_7a8b9c"><a class="_0d1e2f" href="~${p.publisher}">${p.publisher}</a> <span class="_3a4b5c">\u2022</span> <span class="_6c7d8e">${p.published}</span></div>
</div></article>`;
}

const SPONSORED = `<article class="_8fb7a1 _2d4e5f _sp9x8y" aria-label="Sponsored"><div class="_c1f0e2">
<div class="_b2a9c4"><a class="_0a1b2c" href="https://ads.example.test/docsmith"><h3 class="_7d8e9f">Docsmith \u2013 hosted docs from your Markdown</h3></a><span class="_f4e3d2">Sponsored</span></div>
<p class="_5e6f7a">Publish beautiful documentation straight from your repository.</p>
<div class="_1b2c3d"><a class="_4d5e6f" href="https://ads.example.test/docsmith#md">markdown</a> <a class="_4d5e6f" href="https://ads.example.test/docsmith#docs">docs</a></div>
</div></article>`;

function v1(list_: Pkg[]): string {
  return doc({
    title: 'markdown parser - search results',
    body: `<header class="header"><div class="header__bar"><a class="header__logo" href="/">registry</a><form class="header__search" action="/search"><input name="q" value="markdown parser" aria-label="Search packages"><button>Search</button></form><a href="/login">Sign in</a></div>
<nav class="header__nav" aria-label="Main"><a href="/products">Products</a> <a href="/docs">Docs</a> <a href="/support">Support</a></nav></header>
<main class="search-page">
<aside class="search-page__sort"><h2>Sort packages</h2><ul><li><a href="?q=markdown%20parser&amp;ranking=optimal">Optimal</a></li><li><a href="?q=markdown%20parser&amp;ranking=popularity">Popularity</a></li><li><a href="?q=markdown%20parser&amp;ranking=quality">Quality</a></li></ul></aside>
<section class="search-results">
<h2 class="search-results__count">3,412 packages found</h2>
${list_.map(resultV1).join('\n')}
<nav class="pagination" aria-label="Pages"><a href="?q=markdown%20parser&amp;page=2">Next</a></nav>
</section>
</main>
<footer class="footer"><ul><li><a href="/about">About</a></li><li><a href="/policies">Policies</a></li><li><a href="/status">Status</a></li></ul></footer>`,
  });
}

function v2(list_: Pkg[]): string {
  const items = list_.map(resultV2);
  items.splice(2, 0, SPONSORED);
  return doc({
    title: 'markdown parser | registry',
    body: `<div id="app-root"><header class="_h1a2b3"><a class="_h4c5d6" href="/">registry</a><nav class="_h7e8f9" aria-label="Main"><a href="/products">Products</a><a href="/docs">Docs</a><a href="/support">Support</a></nav><form action="/search"><input name="q" value="markdown parser"></form></header>
<main class="_m0a1b2"><div class="_m3c4d5"><h2 class="_m6e7f8">3,412 packages found</h2><label>Sort <select><option>Best match</option><option>Most downloaded</option></select></label></div>
<div class="_r9a8b7">
${items.join('\n')}
</div>
<nav aria-label="Pages" class="_p6c5d4"><a href="search?q=markdown%20parser&amp;page=2">Next page</a></nav>
</main>
<footer class="_f3e2d1"><a href="/about">About</a> <a href="/policies">Policies</a> <a href="/status">Status</a></footer></div>`,
  });
}

type Sel = { name: string; url: string; description: string; keywords: string; publisher: string; version: string; published: string; downloads: string; license: string };
const fields = (s: Sel) => [
  text('name', s.name),
  attribute('url', s.url, 'href', 'absolute_url'),
  text('description', s.description),
  list('keywords', s.keywords),
  text('publisher', s.publisher),
  text('version', s.version),
  text('published', s.published),
  text('downloads', s.downloads),
  text('license', s.license),
];
const computed = [template('spec', '{name}@{version}')];

export function build(): SiteBuild {
  const list_ = pkgs();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'packages',
      base_selector: 'section.search-results > div.package-list-item',
      fields: fields({
        name: 'a.package-name h3', url: 'a.package-name', description: 'p.package-description', keywords: 'ul.package-keywords a',
        publisher: 'a.publisher', version: 'span.version', published: 'time.published', downloads: 'span.downloads', license: 'span.license',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'packages',
      base_selector: 'div._r9a8b7 > article._8fb7a1:not(._sp9x8y)',
      fields: fields({
        name: 'h3._7d8e9f', url: 'a._0a1b2c', description: 'p._5e6f7a', keywords: 'a._4d5e6f', publisher: 'a._0d1e2f',
        version: 'span._f4e3d2', published: 'span._6c7d8e', downloads: 'span._6f5e4d', license: 'span._3c2b1a',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'package-list',
    meta: {
      kind: 'package list',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'extra_wrapper', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'hashed class names carry no meaning; the sponsored result shares the two card classes plus _sp9x8y, and has a name heading, a description and keywords, with "Sponsored" where the version goes',
        'version, downloads, published and license are short tokens ("14.1.0", "9,812,443", "2 years ago", "MIT") in sibling spans; license is missing on some',
        'scoped names (@scope/name) in paths; v2 links are relative ("package/@mdx-js/mdx" against /search)',
        'publisher link holds an avatar <img> before the name in v1',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list_),
    v2: v2(list_),
    expectedV1: list_.map(expected),
    expectedV2: list_.map(expected),
  };
}
