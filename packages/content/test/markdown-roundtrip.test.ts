import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foreignElements, markdownOf, roundTripDifferences, sourceOutline } from './markdown-roundtrip.ts';

// The Markdown of each construct, rendered back to HTML by markdown-it, must show what the page showed: the
// same text per block, the same table grids, link and image targets and code languages, and no element the
// page did not have (see markdown-roundtrip.ts for the comparison and the renderings it accounts for).

const CATALOGUE: Record<string, string> = {
  headings: '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6><p>Body text.</p>',
  'heading ending in a hash': '<h2>Issue #</h2><h3>C# and F#</h3>',
  'heading with a line break': '<h2>First line<br>second line</h2>',
  'nested lists': '<ul><li>one<ul><li>one.a</li><li>one.b<ol start="4"><li>four</li><li>five</li></ol></li></ul></li><li>two</li></ul>',
  'ordered list with paragraphs': '<ol><li><p>First paragraph</p><p>Second paragraph</p></li><li>Plain item</li></ol>',
  blockquotes: '<blockquote><p>Quoted</p><blockquote><p>Nested quote</p></blockquote><p>Back out</p></blockquote>',
  'inline code': '<p>Call <code>tide(h)</code> or <code>a `tick` b</code> or <code>x|y</code>.</p>',
  'code block': '<pre><code class="language-python">def tide(h):\n    return h * 2\n</code></pre>',
  'code block with blank lines': '<pre><code>first\n\n\nafter two blank lines</code></pre>',
  'code block with backticks': '<pre><code>```\nfenced\n```</code></pre>',
  'code language from data-lang': '<pre data-lang="ruby"><code>puts 1</code></pre>',
  'code language from data-language': '<pre><code data-language="go">fmt.Println(1)</code></pre>',
  'code language from highlight class': '<pre class="highlight-sql">SELECT 1</pre>',
  'code language from language class': '<pre><code class="hljs language-typescript">let x = 1</code></pre>',
  'code language from lang class': '<pre class="lang-rust"><code>fn main() {}</code></pre>',
  'code language from a wrapping div': '<div class="highlight-python notranslate"><div class="highlight"><pre><span>print</span>(1)</pre></div></div>',
  'code block in a list item': '<ul><li>Install:<pre><code class="language-sh">npm install\n\nnpm test</code></pre></li><li>Done</li></ul>',
  'code block in an ordered list item': '<ol><li>a</li><li>b</li><li>c</li><li>d</li><li>e</li><li>f</li><li>g</li><li>h</li><li>i</li><li>Tenth<pre>x = 1\n  y = 2</pre>after</li></ol>',
  links: '<p>See <a href="../ref/a.html">the ref</a>, <a href="/root">root</a>, <a href="https://other.example/x?q=1&amp;r=2">other</a> and <a href="#part">a part</a>.</p>',
  images: '<p><img src="img/tide.png" alt="Tide chart"> and <img src="/abs.png" alt="An *image* [x]" title="A &quot;title&quot;"></p>',
  'image in a link': '<p><a href="/big.png"><img src="/small.png" alt="thumb"></a></p>',
  'table with header row': '<table><thead><tr><th>Day</th><th>Tide</th></tr></thead><tbody><tr><td>Mon</td><td>4.2</td></tr><tr><td>Tue</td><td>4.5</td></tr></tbody></table>',
  'table without header row': '<table><tr><td>Port</td><td>Range</td></tr><tr><td>North</td><td>3 m</td></tr></table>',
  'table with th header in tbody': '<table><tr><th>Port</th><th>Range</th></tr><tr><td>North</td><td>3 m</td></tr></table>',
  'table with colspan': '<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td colspan="2">wide</td><td>c</td></tr><tr><td>a</td><td colspan="2">wide too</td></tr></table>',
  'table with rowspan': '<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td rowspan="2">tall</td><td>b1</td><td>c1</td></tr><tr><td>b2</td><td>c2</td></tr></table>',
  'table with ragged rows': '<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>only</td></tr></table>',
  'table cell with a list and paragraphs': '<table><tr><th>Item</th><th>Notes</th></tr><tr><td><ul><li>red</li><li>blue</li></ul></td><td><p>first</p><p>second</p></td></tr><tr><td><ol><li>one</li><li>two</li></ol></td><td>a<br>b</td></tr></table>',
  'table cell with pipes and escapes': '<table><tr><th>Expr</th><th>Value</th></tr><tr><td>a|b</td><td>\\| and *x*</td></tr></table>',
  'table with caption': '<table><caption>Tides &amp; times</caption><tr><th>Day</th><th>Tide</th></tr><tr><td>Mon</td><td>4.2</td></tr></table>',
  'layout table of one cell': '<table><tr><td><p>Only cell</p><p>Second paragraph</p></td></tr></table>',
  'layout table of one column': '<table><tr><td><p>Row one</p></td></tr><tr><td><p>Row two</p></td></tr></table>',
  'layout table with headings': '<table><tr><td><h2>Side</h2><p>menu</p></td><td><p>Main text</p></td></tr></table>',
  spans: '<p><span>plain</span> <span class="x">spanned <span>nested</span></span> text</p>',
  entities: '<p>&lt;div&gt; &amp;amp; &quot;q&quot; &copy; &#x1F600; &amp;copy; &lt;https://x.example&gt; &lt;!-- c --&gt;</p>',
  'html-escaped tags': '<p>Use &lt;div class="x"&gt; and &lt;/div&gt;, or &lt;br&gt; &lt;img src=x&gt;.</p>',
  'markdown characters in text': '<p>*star* _under_ [link](x) `tick` \\ back ~~strike~~ a|b #hash</p>',
  'block markers at the start of paragraphs': '<p>1) one</p><p>1. one</p><p>+ plus</p><p>- dash</p><p>* star</p><p># hash</p><p>&gt; quote</p><p>=== equals</p><p>--- rule</p><p>1.</p><p>+</p><p>#</p><p>| --- |</p>',
  'block markers after a line break': '<p>start<br>1) one<br>- dash<br>+ plus<br># hash<br>&gt; quote<br>===<br>|-|-|</p>',
  'line breaks': '<p>one<br>two<br><br>three<br></p><p><br>lead</p><p>end<br><br></p>',
  'line break in emphasis': '<p><em>a<br></em>b and <strong><br>c</strong></p>',
  'intraword emphasis': '<p>un<em>believ</em>able, <strong>bold</strong>ly, snake<em>_case</em>, x<i>y</i>z, <b>a</b><b>b</b>, <em>c</em><em>d</em></p>',
  'emphasis next to punctuation': '<p>foo<em>"bar"</em>baz, <strong>(x)</strong>y, a<em>-b-</em>c, <em>.</em>, "<em>quoted</em>"</p>',
  'nested emphasis': '<p><em><strong>both</strong></em> <strong><em>both</em> bold</strong> <em>a <em>b</em> c</em> <b><b>x</b></b></p>',
  strikethrough: '<p><del>gone</del> <s>struck</s>out in<strike>word</strike>s</p>',
  'superscript and subscript': '<p>x<sup>2</sup> + H<sub>2</sub>O, 10<sup>-3</sup>, e<sup><em>i</em>π</sup></p>',
  'definition list': '<dl><dt>Term</dt><dd>Definition</dd><dt><b>Bold term</b></dt><dd><p>First</p><p>Second</p></dd></dl>',
  'non-Latin text': '<h2>Ελληνικά</h2><p>Привет, мир. 日本語のテキスト。中文文本。한국어</p><ul><li>Ωμέγα</li><li>Щука</li></ul>',
  'right-to-left text': '<p dir="rtl">مرحبا بالعالم</p><p dir="rtl">שלום עולם</p><p>Mixed: العربية and עברית in <em>one</em> line.</p>',
  'emphasis in other scripts': '<p>日本<em>語</em>です、<strong>「引用」</strong>です, Прив<em>ет</em></p>',
  'horizontal rule': '<p>above</p><hr><p>below</p>',
  'card link with blocks': '<a href="/storm"><h3>Storm season</h3><p>What to expect</p></a>',
};

describe('Markdown round trip: catalogue', () => {
  for (const [name, fragment] of Object.entries(CATALOGUE)) {
    it(`renders back what the page showed: ${name}`, () => {
      const markdown = markdownOf(fragment);
      const source = sourceOutline(fragment);
      expect(source.blocks.length + source.tables.length + source.images.length).toBeGreaterThan(0);
      expect(roundTripDifferences(fragment, markdown), markdown).toEqual([]);
      expect(foreignElements(fragment, markdown), markdown).toEqual([]);
    });
  }
});

// Random fragments from a grammar of block and inline elements. Texts mix letters with every character
// Markdown gives a meaning to, and other scripts; they stay short so that main-content extraction keeps
// the fragment whole (it drops repeated blocks of 60+ characters).
const TEXT_UNITS = [
  'a', 'b', 'Zed', '7', ' ', ' ', ' ', '*', '_', '[', ']', '<', '>', '&', '#', '+', '-', '1)', '1.', '\\', '`', '~',
  '|', '!', '(', ')', '"', '=', ':', '&amp;', 'é', 'Ж', '日本', 'ا', 'ש', '😀', '\u00a0',
];
const text = fc.array(fc.constantFrom(...TEXT_UNITS), { minLength: 1, maxLength: 6 }).map((units) => escapeHtml(units.join('')));
const codeText = fc
  .array(fc.constantFrom('x', 'y = 1', '  indented', '<b>', '&', '`', '```', '*', '\\', '', '\t', 'é'), { minLength: 1, maxLength: 4 })
  .map((lines) => escapeHtml(lines.join('\n')));
const href = fc.constantFrom('/a', '../b', 'c?d=1&e=2', 'https://other.example/x', '#frag', 'page two.html');
const language = fc.constantFrom(
  '',
  ' class="language-js"',
  ' class="lang-py"',
  ' data-lang="go"',
  ' data-language="rust"',
  ' class="highlight-sql"',
);

const { block } = fc.letrec((tie) => ({
  // Phrasing content without links (HTML has no links in links).
  plain: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    text,
    fc
      .tuple(fc.constantFrom('em', 'strong', 'b', 'i', 'sup', 'sub', 'span', 'del', 's', 'u', 'small'), fc.array(tie('plain'), { minLength: 1, maxLength: 3 }))
      .map(([tag, children]) => `<${tag}>${children.join('')}</${tag}>`),
    text.map((code) => `<code>${code}</code>`),
    fc.constant('<br>'),
    fc.constantFrom('<img src="/i.png" alt="pic">', '<img src="img/t.png" alt="a *b*">'),
  ),
  inline: fc.oneof(
    tie('plain'),
    fc.tuple(href, fc.array(tie('plain'), { minLength: 1, maxLength: 2 })).map(([url, children]) => `<a href="${escapeHtml(url)}">${children.join('')}</a>`),
  ),
  inlines: fc.array(tie('inline'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('inlines').map((html) => `<p>${html}</p>`),
    tie('inlines').map((html) => `<p>${html}</p>`),
    fc.tuple(fc.integer({ min: 1, max: 6 }), tie('inlines')).map(([level, html]) => `<h${level}>${html}</h${level}>`),
    fc
      .tuple(fc.constantFrom('ul', 'ol', 'ol start="3"'), fc.array(fc.oneof(tie('inlines'), tie('blocks')), { minLength: 1, maxLength: 3 }))
      .map(([list, items]) => `<${list}>${items.map((item) => `<li>${item}</li>`).join('')}</${list.split(' ')[0]}>`),
    tie('blocks').map((html) => `<blockquote>${html}</blockquote>`),
    fc.tuple(language, fc.boolean(), codeText).map(([lang, wrapped, code]) => (wrapped ? `<pre><code${lang}>${code}</code></pre>` : `<pre${lang}>${code}</pre>`)),
    fc
      .tuple(fc.array(fc.tuple(tie('inlines'), fc.oneof(tie('inlines'), tie('blocks'))), { minLength: 1, maxLength: 2 }))
      .map(([pairs]) => `<dl>${pairs.map(([term, definition]) => `<dt>${term}</dt><dd>${definition}</dd>`).join('')}</dl>`),
    table(tie('inlines'), tie('cellBlocks')),
    fc.constant('<hr>'),
  ),
  blocks: fc.array(tie('block'), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
  // What a data table's cell may hold besides inline content: paragraphs and lists.
  cellBlocks: fc
    .array(fc.oneof(tie('inlines').map((html) => `<p>${html}</p>`), fc.array(tie('inlines'), { minLength: 1, maxLength: 2 }).map((items) => `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`)), { minLength: 1, maxLength: 2 })
    .map((parts) => parts.join('')),
}));

function table(inlines: fc.Arbitrary<unknown>, cellBlocks: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const cell = fc.tuple(fc.constantFrom('td', 'td', 'th'), fc.oneof(inlines, cellBlocks, fc.constant('')), fc.constantFrom('', '', '', ' colspan="2"', ' rowspan="2"'));
  return fc
    .tuple(fc.boolean(), fc.array(fc.array(cell, { minLength: 2, maxLength: 3 }), { minLength: 1, maxLength: 3 }))
    .map(([head, rows]) => {
      const html = rows.map((cells) => `<tr>${cells.map(([tag, content, span]) => `<${tag}${span}>${content as string}</${tag}>`).join('')}</tr>`);
      return head ? `<table><thead><tr><th>h1</th><th>h2</th></tr></thead><tbody>${html.join('')}</tbody></table>` : `<table>${html.join('')}</table>`;
    });
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const fragment = fc.array(block, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
// Deterministic in CI: a fixed seed, a bounded number of runs.
const PROPERTY_RUNS = { numRuns: 200, seed: 20_240_611 };

describe('Markdown round trip: random fragments', () => {
  it('renders back the same text per block, table grids, link targets and code languages', () => {
    fc.assert(
      fc.property(fragment, (html) => {
        const markdown = markdownOf(html);
        expect(roundTripDifferences(html, markdown), `${html}\n---\n${markdown}`).toEqual([]);
      }),
      PROPERTY_RUNS,
    );
  });

  it('renders no element the page did not have', () => {
    fc.assert(
      fc.property(fragment, (html) => {
        const markdown = markdownOf(html);
        expect(foreignElements(html, markdown), `${html}\n---\n${markdown}`).toEqual([]);
      }),
      PROPERTY_RUNS,
    );
  });
});
