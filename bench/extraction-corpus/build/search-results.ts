import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, doc, esc } from './html.ts';
import { attribute, list, text, type SiteBuild } from './site.ts';

// A web search results page, with the obfuscated class names search engines ship. v2 is the next build: every
// class re-hashed, one more wrapper level, the site name and URL breadcrumb moved above the title, and
// sponsored results (same heading/link/snippet shape, a "Sponsored" label) at the top and in the middle.

const PAGE_URL = 'https://search.example.test/search?q=rust+async+runtime&hl=en';

interface Result {
  url: string;
  title: string;
  site: string;
  crumbs: string[];
  date: string | null;
  /** Snippet markup: <em> for query words. */
  snippet: string;
  sitelinks: [string, string][];
}

const RESULTS: Result[] = [
  { url: 'https://tokio.rs/', title: 'Tokio - An asynchronous Rust runtime', site: 'Tokio', crumbs: [], date: null, snippet: 'Tokio is an <em>asynchronous runtime</em> for the <em>Rust</em> programming language. It provides the building blocks needed for writing network applications.', sitelinks: [['Tutorial', 'https://tokio.rs/tokio/tutorial'], ['API docs', 'https://docs.rs/tokio/latest/tokio/'], ['Blog', 'https://tokio.rs/blog']] },
  { url: 'https://docs.rs/tokio/latest/tokio/runtime/index.html', title: 'tokio::runtime - Rust', site: 'Docs.rs', crumbs: ['tokio', 'latest', 'runtime'], date: null, snippet: 'The <em>Tokio runtime</em>. Unlike other <em>Rust</em> programs, <em>asynchronous</em> applications require <em>runtime</em> support.', sitelinks: [] },
  { url: 'https://rust-lang.github.io/async-book/', title: 'Asynchronous Programming in Rust', site: 'GitHub Pages', crumbs: ['async-book'], date: null, snippet: 'This book aims to be a comprehensive, up-to-date guide to <em>Rust\'s async</em> ecosystem, suitable for beginners and old veterans alike.', sitelinks: [] },
  { url: 'https://blog.example.org/2024/03/choosing-an-async-runtime', title: 'Choosing an async runtime in 2024: Tokio, async-std, smol', site: 'Systems Notes', crumbs: ['2024', '03', 'choosing-an-async-runtime'], date: 'Mar 3, 2024', snippet: 'We compare the three most used <em>async runtimes</em> for <em>Rust</em> on latency, ecosystem & ergonomics.', sitelinks: [] },
  { url: 'https://github.com/smol-rs/smol', title: 'smol-rs/smol: A small and fast async runtime for Rust', site: 'GitHub', crumbs: ['smol-rs', 'smol'], date: null, snippet: 'A small and fast <em>async runtime</em>. This crate simply re-exports other smaller <em>async</em> crates.', sitelinks: [] },
  { url: 'https://forum.example.org/t/is-async-std-still-maintained/10422', title: 'Is async-std still maintained? - Rust Users Forum', site: 'Rust Users Forum', crumbs: ['t', 'is-async-std-still-maintained'], date: 'Nov 18, 2023', snippet: 'I noticed the last release of async-std was a while ago. Should new projects pick <em>tokio</em> instead?', sitelinks: [] },
  { url: 'https://en.wikipedia.org/wiki/Async/await', title: 'Async/await - Wikipedia', site: 'Wikipedia', crumbs: ['wiki', 'Async', 'await'], date: null, snippet: 'In computer programming, the <em>async/await</em> pattern is a syntactic feature of many programming languages that allows an <em>asynchronous</em>, non-blocking function to be structured in a way similar to an ordinary synchronous function.', sitelinks: [] },
  { url: 'https://without.boats/blog/why-async-rust/', title: 'Why async Rust?', site: 'without.boats', crumbs: ['blog', 'why-async-rust'], date: 'Oct 15, 2023', snippet: 'A defence of the design of <em>async Rust</em>: stackless coroutines, zero-cost futures and the trade-offs of a <em>runtime</em>-agnostic standard library.', sitelinks: [] },
  { url: 'https://docs.rs/glommio/latest/glommio/', title: 'glommio - Rust', site: 'Docs.rs', crumbs: ['glommio', 'latest'], date: null, snippet: 'Glommio is a library providing a safe <em>Rust</em> interface for asynchronous, thread-local I/O, based on the linux io_uring interface.', sitelinks: [['Executors', 'https://docs.rs/glommio/latest/glommio/struct.LocalExecutor.html'], ['Examples', 'https://github.com/DataDog/glommio/tree/master/examples']] },
  { url: 'https://www.reddit.example/r/rust/comments/18k2n1a/tokio_vs_asyncstd/', title: 'Tokio vs async-std in 2024? : r/rust', site: 'Reddit', crumbs: ['r', 'rust', 'comments'], date: 'Dec 12, 2023', snippet: '<em>Tokio</em> has won for most use cases; async-std is fine for small tools. The real question is which ecosystem your dependencies assume.', sitelinks: [] },
];

const plain = (markup: string) => markup.replace(/<[^>]+>/g, '');
const origin = (url: string) => url.replace(/^(https:\/\/[^/]+).*$/, '$1');

function expected(r: Result): ExtractedRecord {
  const snippet = plain(r.snippet);
  return {
    title: r.title,
    url: r.url,
    site: r.site,
    display_url: [origin(r.url), ...r.crumbs].join(' \u203a '),
    date: r.date,
    snippet: r.date ? `${r.date} \u2014 ${snippet}` : snippet,
    sitelinks: r.sitelinks.length ? r.sitelinks.map(([l]) => l) : null,
  };
}

const cite = (r: Result, cls: string, spanCls: string) =>
  `<cite class="${cls}" role="text">${origin(r.url)}${r.crumbs.length ? `<span class="${spanCls}" role="text"> \u203a ${r.crumbs.map(esc).join(' \u203a ')}</span>` : ''}</cite>`;

const snippetHtml = (r: Result) => r.snippet.replace(/&(?!amp;)/g, '&amp;').replace(/'/g, '&#39;');

function resultV1(r: Result, i: number): string {
  return `<div class="g Ww4FFb vt6azd tF2Cxc asEBEc" data-hveid="CA${i}QAA" data-ved="2ahUKEwi${i}">
<div class="N54PNb BToiNc cvP2Ce" data-snc="ih6Jnb_${i}">
<div class="kb0PBd cvP2Ce jGGQ5e" data-snf="x5WNvb"><div class="yuRUbf"><div><span jscontroller="msmzHf"><a jsname="UWckNb" href="${attr(r.url)}" data-ved="2ahUKE${i}"><br><h3 class="LC20lb MBeuO DKV0Md">${esc(r.title)}</h3><div class="notranslate HGLrXd NJjxre iUh30 ojE3Fb"><div class="q0vns"><span class="H9lube"><div class="eqA2re NjwKYd Vwoesf" aria-hidden="true"><img class="XNo5Ab" src="data:image/png;base64,iVBORw0KGgo=" alt="" height="18" width="18"></div></span><div class="CA5RN"><div><span class="VuuXrf">${esc(r.site)}</span></div><div class="byrV5b">${cite(r, 'qLRx3b tjvcx GvPZzd cHaqb', 'dyjrff ob9lvb')}</div></div></div></div></a></span></div></div></div>
<div class="kb0PBd cvP2Ce A9Y9g" data-sncf="1"><div class="VwiC3b yXK7lf lVm3ye r025kc hJNv6b Hdw6tb" style="-webkit-line-clamp:2">${
  r.date ? `<span class="LEwnzc Sqrs4e"><span>${r.date}</span> \u2014 </span>` : ''}<span>${snippetHtml(r)}</span></div></div>${
  r.sitelinks.length ? `\n<div class="HiHjCd">${r.sitelinks.map(([l, h]) => `<a class="fl" href="${attr(h)}">${esc(l)}</a>`).join(' \u00b7 ')}</div>` : ''}
</div>
</div>`;
}

function resultV2(r: Result, i: number): string {
  return `<div class="MjjYud"><div class="A6K0A"><div class="wHYlTd Ww4FFb vt6azd" data-rpos="${i}">
<div class="Z26q7c UK95Uc"><div class="byrV5b"><span class="VuuXrf2">${esc(r.site)}</span>${cite(r, 'tjvcx2 GvPZzd2', 'ob9lvb2')}</div></div>
<div class="Z26q7c UK95Uc jGGQ5e"><div class="yuRUbf2"><a href="${attr(r.url)}" ping="/url?sa=t&amp;source=web&amp;rct=j"><h3 class="LC20lb2 DKV0Md2">${esc(r.title)}</h3></a></div></div>
<div class="Z26q7c UK95Uc"><div class="VwiC3b2 p4wth"><span class="YrbPuc">${r.date ? `<span>${r.date}</span> \u2014 ` : ''}</span><span>${snippetHtml(r)}</span></div></div>${
  r.sitelinks.length ? `\n<div class="Z26q7c UK95Uc"><ul class="bOkdDe">${r.sitelinks.map(([l, h]) => `<li><a class="l" href="${attr(h)}">${esc(l)}</a></li>`).join('')}</ul></div>` : ''}
</div></div></div>`;
}

const AD = (n: number, title: string, host: string, text: string) => `<div class="uEierd2" data-text-ad="${n}"><div class="v5yQqb"><span class="U3A9Ac qV8iec">Sponsored</span>
<div class="Z26q7c UK95Uc"><div class="byrV5b"><span class="VuuXrf2">${esc(host)}</span><cite class="tjvcx2">https://www.${host}</cite></div></div>
<a class="sVXRqc" href="/aclk?sa=l&amp;ai=DChcSE${n}&amp;adurl=https://www.${host}/"><div role="heading" aria-level="3" class="CCgQ5 vCa9Yd QfkTvb"><span>${esc(title)}</span></div></a>
<div class="Va3FIb r025kc lVm3ye">${esc(text)}</div></div></div>`;

function v1(list: Result[]): string {
  return doc({
    title: 'rust async runtime - Search',
    body: `<div class="L3eUgb"><header class="o3j99 n1xJcf Ne6nSd" role="banner"><a class="logo" href="/">Search</a><form class="tsf" action="/search" role="search"><input class="gLFyf" name="q" value="rust async runtime" aria-label="Search"></form>
<div id="hdtb" role="navigation"><nav aria-label="Search modes"><a class="hdtb-mitem hdtb-msel" href="/search?q=rust+async+runtime">All</a> <a class="hdtb-mitem" href="/search?q=rust+async+runtime&amp;tbm=nws">News</a> <a class="hdtb-mitem" href="/search?q=rust+async+runtime&amp;tbm=vid">Videos</a></nav></div></header>
<div id="main"><div id="cnt"><div id="center_col">
<div id="result-stats">About 1,240,000 results (0.41 seconds)</div>
<div id="search"><div id="rso" data-async-context="query:rust%20async%20runtime">
${list.slice(0, 6).map(resultV1).join('\n')}
<div class="related-question-pair"><h2>People also ask</h2><div class="wQiwMc">Is Tokio the best async runtime?</div><div class="wQiwMc">What is an async runtime in Rust?</div></div>
${list.slice(6).map((r, i) => resultV1(r, i + 6)).join('\n')}
</div></div>
<div id="botstuff"><div class="related-searches"><h2>Related searches</h2><a href="/search?q=tokio+vs+async-std">tokio vs async-std</a> <a href="/search?q=rust+async+book">rust async book</a></div></div>
</div>
<div id="rhs" role="complementary"><h2 class="kp-title">Tokio</h2><p>Software library</p></div>
</div></div>
<footer id="footcnt"><div class="fbar"><span>Netherlands</span> <a href="/intl/en/policies/privacy/">Privacy</a> <a href="/intl/en/policies/terms/">Terms</a></div></footer></div>`,
  });
}

function v2(list: Result[]): string {
  const blocks = list.map(resultV2);
  blocks.splice(4, 0, AD(2, 'Managed Rust hosting \u2013 deploy async services in seconds', 'rusthost.example', 'Autoscaling, zero-config TLS and first-class Tokio support. Try it free for 30 days.'));
  return doc({
    title: 'rust async runtime - Search',
    body: `<div class="Fgvgjc"><header class="Hd7Zlb" role="banner"><a class="logo2" href="/">Search</a><form action="/search" role="search"><textarea class="gLFyf2" name="q" aria-label="Search">rust async runtime</textarea></form>
<nav class="crJ18e" aria-label="Search modes"><a aria-current="page" href="/search?q=rust+async+runtime">All</a><a href="/search?q=rust+async+runtime&amp;tbm=nws">News</a><a href="/search?q=rust+async+runtime&amp;tbm=vid">Videos</a></nav></header>
<div id="main"><div id="appbar"><div id="result-stats">About 1,240,000 results</div></div>
<div id="tads" aria-label="Ads">${AD(1, 'Learn async Rust in 4 weeks \u2013 live online course', 'rustcourse.example', 'Hands-on course with mentors. Next cohort starts Monday.')}</div>
<div id="search"><div id="rso" data-async-context="query:rust%20async%20runtime">
${blocks.join('\n')}
</div></div>
<div id="bottomads" aria-label="Ads">${AD(3, 'Rust consulting for async services', 'ferrous.example', 'Performance audits and training for teams adopting Tokio.')}</div>
</div>
<footer class="fbar2"><a href="/intl/en/policies/privacy/">Privacy</a> <a href="/intl/en/policies/terms/">Terms</a></footer></div>`,
  });
}

type Sel = { title: string; url: string; site: string; cite: string; date: string; snippet: string; sitelinks: string };
const fields = (s: Sel) => [
  text('title', s.title),
  attribute('url', s.url, 'href'),
  text('site', s.site),
  text('display_url', s.cite),
  text('date', s.date),
  text('snippet', s.snippet),
  list('sitelinks', s.sitelinks),
];

export function build(): SiteBuild {
  const list_ = RESULTS;
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'organic results',
      base_selector: '#rso div.g',
      fields: fields({ title: 'h3', url: '.yuRUbf a', site: '.VuuXrf', cite: 'cite', date: '.LEwnzc > span', snippet: '.VwiC3b', sitelinks: '.HiHjCd a' }),
    },
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'organic results',
      base_selector: '#rso div.wHYlTd',
      fields: fields({ title: 'h3', url: '.yuRUbf2 a', site: '.VuuXrf2', cite: 'cite', date: '.YrbPuc > span', snippet: '.VwiC3b2', sitelinks: '.bOkdDe a' }),
    },
  };
  return {
    id: 'search-results',
    meta: {
      kind: 'search results',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'extra_wrapper', 'fields_reordered', 'promo_inserted', 'optional_missing'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'both versions use obfuscated class names; v2 re-hashes them and adds a level (MjjYud > A6K0A > wHYlTd)',
        'sponsored results have the site name, cite, heading link and description shape of organic ones; one sits between results 4 and 5',
        'the title link in v1 wraps a <br>, the <h3> and the whole site/cite block; in v2 the site/cite block moves above the title',
        'snippet includes the optional date prefix ("Mar 3, 2024 — …"); date alone is the inner span; sitelinks is an optional list',
        'a "People also ask" block sits between organic results in v1',
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
