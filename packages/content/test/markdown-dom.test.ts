import { describe, expect, it } from 'vitest';
import { parseHtml, type DomDocument, type DomElement, type DomNode } from '../src/dom.ts';
import { createElement, createRoot, createText } from '../src/markdown/markdown-dom.ts';
import { markdownShaper } from '../src/markdown/shape.ts';
import { MarkdownTreeBuilder } from '../src/markdown/tree.ts';
import { contentToMarkdown, htmlToMarkdown } from '../src/markdown/markdown.ts';
import { serializeSanitized, walkSanitized } from '../src/sanitize/sanitize-html.ts';

// The Markdown of a subtree is made by turndown walking our own small DOM (markdown-dom.ts). These tests hold it
// to the reference: the same subtree serialized to HTML and converted by turndown from the string (parsed by
// domino, as before the facade existed).

const BASE = 'https://docs.example.com/guide/';
const shaped = () => ({ baseUrl: BASE, rename: markdownShaper(), markdownAttributes: true });

function bothWays(root: DomDocument): { facade: string; reference: string; direct: boolean } {
  const builder = new MarkdownTreeBuilder();
  walkSanitized(root, shaped(), builder);
  const run = (convert: () => string) => {
    try {
      return convert();
    } catch (error) {
      return `threw ${(error as Error).message}`;
    }
  };
  return {
    facade: run(() => contentToMarkdown(root, BASE)),
    reference: run(() => htmlToMarkdown(serializeSanitized(root, shaped()))),
    direct: !builder.failed,
  };
}

const SNIPPETS: Record<string, string> = {
  headings: '<h1>Title</h1><h2>Sub <em>title</em></h2><h6>Small</h6><p>Text</p>',
  'nested lists': '<ul><li>One<ul><li>One.a</li><li>One.b<ol start="4"><li>deep</li><li>deeper</li></ol></li></ul></li><li>Two</li></ul>',
  'list with paragraphs': '<ol><li><p>First paragraph</p><p>Second paragraph</p></li><li>Plain</li></ol>',
  'ordered list with bad start': '<ol start="x"><li>a</li><li>b</li></ol>',
  'code block with language': '<pre><code class="language-python">def f(x):\n    return x * 2\n</code></pre>',
  'code block with lang- class on pre': '<pre class="lang-rust"><code>fn main() {}</code></pre>',
  'pre with leading newline': '<pre>\n\nfirst\n  second\n</pre><pre><code>\nkept</code></pre>',
  'pre with br and line elements': '<pre>a<br>b<div>c</div><div>d</div></pre>',
  'code with backticks': '<p>Use <code>a `b` c</code> and</p><pre><code>```\nfenced\n```</code></pre>',
  'table with header row': '<table><thead><tr><th>Day</th><th align="right">Tide</th></tr></thead><tbody><tr><td>Mon</td><td>4.2</td></tr></tbody></table>',
  'table without header row': '<table><tr><td>Port</td><td>Range</td></tr><tr><td>North</td><td>3 m</td></tr></table>',
  'table with a caption and no header row': '<table><caption>Tides &amp; times</caption><tr><td>a&nbsp;b</td><td>c</td></tr><tr><td>1</td><td>2</td></tr></table>',
  'table with a blank header row': '<table><thead><tr><td> </td><td></td></tr></thead><tbody><tr><td>x</td><td>y</td></tr></tbody></table>',
  'table with columns and pipes': '<table><colgroup><col><col></colgroup><col><tr><th>a|b</th><th>c</th></tr><tr><td><p>one</p><p>two</p></td><td></td></tr></table>',
  'layout table': '<table><tr><td><h2>Side</h2><ul><li>x</li></ul></td><td><p>Main text here</p></td></tr></table>',
  links: '<p>See <a href="../ref/a b.html" title="The &quot;ref&quot;">the ref</a>, <a href="mailto:x@example.com">mail</a> and <a href="javascript:alert(1)">bad</a>.</p>',
  'card link': '<a href="/card"><h3>Card title</h3><p>Card text</p></a>',
  'empty link and icon link': '<p>Text <a href="/x"><span> </span></a> and <a href="/y"><img src="/i.png" alt="icon"></a></p>',
  images: '<p><img src="/a.png" alt="An *image*" title="T"> <img src="data:image/png;base64,AAAA" alt="inline"> <img alt="no src"></p>',
  blockquotes: '<blockquote><p>Quoted</p><blockquote><p>Nested</p></blockquote></blockquote>',
  'whitespace edge cases': '<p>  lead  <b> bold </b>trail  </p><p>a<span> </span>b <i>c</i> <br> d\n\te</p><div> <p> x </p> </div>',
  'non-breaking and unicode spaces': '<p>&nbsp;a&nbsp;&nbsp;b\u2003c\u3000</p><p><em>&nbsp;</em></p>',
  entities: '<p>&lt;tag&gt; &amp;amp; &quot;q&quot; &copy; &#x1F600; &unknown;</p>',
  'markdown characters in text': '<p>1. not a list</p><p># not a heading</p><p>- dash *star* _under_ [x] `tick` \\ + plus =eq ~~~</p>',
  'inline formatting': '<p><strong>strong</strong> <em>em</em> <del>gone</del> <s>struck</s> <sub>2</sub> <kbd>K</kbd> <u>u</u></p>',
  'line breaks and rules': '<p>one<br>two<br><br>three</p><hr><p>after</p>',
  'CR and NUL characters': '<p>a\r\nb\rc\u0000d</p><pre>x\r\ny</pre><a href="/q" title="t\r\nu">l</a>',
  'definition lists and details': '<dl><dt>Term</dt><dd>Definition</dd></dl><details><summary>More</summary><p>Hidden</p></details>',
  'nested inline in blocks': '<div><span>loose <a href="/l">link</a></span><section><p>para</p></section></div>',
  'ruby annotations': '<p><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>字</p>',
  'stray table parts': '<div><td>cell outside</td><tr><th>row</th></tr></div><p>x</p>',
  // Markup an HTML parser restructures: simple cases are followed, the others handed over to the string path.
  'link inside a link': '<a href="/outer">outer <span><a href="/inner">inner</a></span> rest</a>',
  'block inside a paragraph': '<p>text <span><div>block</div> tail</span> more</p><p>a<ul><li>b</li></ul>c</p>',
  'text directly in a table': '<table>loose text<tr><td>a</td><td>b</td></tr></table>',
  'block inside formatting inside a paragraph': '<p><b>bold <div>block</div> bold</b></p>',
  'link inside bold inside a link': '<a href="/x">a <b><a href="/y">b</a></b> c</a>',
  'heading inside a heading': '<h2>outer <h3>inner</h3> tail</h2>',
};

describe('Markdown from the facade', () => {
  for (const [name, snippet] of Object.entries(SNIPPETS)) {
    it(`matches the HTML-string conversion: ${name}`, () => {
      const { facade, reference } = bothWays(parseHtml(snippet));
      expect(facade).toBe(reference);
      expect(facade).not.toMatch(/^threw/);
    });
  }

  it('builds the tree itself unless the parser would restructure the markup', () => {
    const fallbacks = ['text directly in a table', 'block inside formatting inside a paragraph', 'link inside bold inside a link', 'heading inside a heading'];
    for (const [name, snippet] of Object.entries(SNIPPETS)) expect(bothWays(parseHtml(snippet)).direct, name).toBe(!fallbacks.includes(name));
  });

  it('writes a header-less table with a caption as its caption, then a GFM table with an empty header row', () => {
    const { facade } = bothWays(parseHtml(SNIPPETS['table with a caption and no header row']));
    expect(facade).toBe('Tides & times\n\n|  |  |\n| --- | --- |\n| a\u00a0b | c |\n| 1 | 2 |');
  });

  it('matches on random markup, including markup the parser would rearrange', () => {
    let seed = 20240611;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const names = ['p', 'div', 'span', 'a', 'b', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'h2', 'table', 'tr', 'td', 'th', 'thead', 'tbody', 'blockquote', 'br', 'img', 'hr', 'section', 'dl', 'dt', 'dd'];
    const texts = [' ', '\n', 'word ', '  two  words ', '\u00a0', '1. x', '*', 'a_b', '\n\tfoo', '', 'x'];
    const grow = (parent: DomElement | DomDocument, depth: number) => {
      const count = Math.floor(random() * (depth < 2 ? 5 : 3));
      for (let i = 0; i < count; i++) {
        if (depth > 5 || random() < 0.35) {
          parent.children.push({ type: 'text', data: pick(texts), parent });
          continue;
        }
        const name = parent.type !== 'root' && parent.name === 'tr' ? pick(['td', 'th']) : pick(names);
        const attribs: Record<string, string> = name === 'a' ? { href: pick(['/x', '#top', '']) } : name === 'img' ? { src: '/i.png', alt: 'i' } : {};
        const el: DomElement = { type: 'tag', name, attribs, children: [], parent };
        parent.children.push(el as DomNode);
        if (!['br', 'img', 'hr'].includes(name)) grow(el, depth + 1);
      }
    };
    for (let run = 0; run < 400; run++) {
      const root: DomDocument = { type: 'root', children: [], parent: null };
      grow(root, 0);
      const { facade, reference } = bothWays(root);
      expect(facade, serializeSanitized(root, shaped())).toBe(reference);
    }
  });
});

describe('the Markdown DOM', () => {
  function sample() {
    const root = createRoot();
    const table = createElement(root, 'TABLE', null);
    root.appendChild(table);
    const row = createElement(root, 'TR', null);
    table.appendChild(row);
    const cell = createElement(root, 'TD', ['title', 'a "b" & <c>\u00a0']);
    row.appendChild(cell);
    cell.appendChild(createText(root, 'x < y & z\u00a0'));
    cell.appendChild(createElement(root, 'BR', null));
    cell.appendChild(createText(root, 'tail'));
    root.appendChild(createText(root, ' after'));
    return { root, table, row, cell };
  }

  it('answers the node properties turndown reads', () => {
    const { root, table, row, cell } = sample();
    expect(root.childNodes.map((node) => node.nodeName)).toEqual(['TABLE', '#text']);
    expect(root.children).toEqual([table]);
    expect(root.lastElementChild).toBe(table);
    expect(table.rows).toEqual([row]);
    expect(cell.getAttribute('title')).toBe('a "b" & <c>\u00a0');
    expect(cell.getAttribute('class')).toBeNull();
    expect(cell.className).toBe('');
    expect(cell.firstChild?.nodeValue).toBe('x < y & z\u00a0');
    expect(cell.nodeValue).toBeNull();
    expect(cell.childNodes[1].previousSibling).toBe(cell.firstChild);
    expect(root.textContent).toBe('x < y & z\u00a0tail after');
    expect(cell.textContent).toBe('x < y & z\u00a0tail');
    expect(root.getElementsByTagName('br')).toHaveLength(1);
  });

  it('keeps textContent right through edits and removals', () => {
    const { root, cell } = sample();
    expect(root.textContent).toBe('x < y & z\u00a0tail after');
    cell.firstChild!.data = 'changed';
    expect(root.textContent).toBe('changedtail after');
    const removed = cell.removeChild(cell.lastChild!);
    expect(cell.textContent).toBe('changed');
    expect(removed.parentNode).toBeNull();
    expect(cell.childNodes.map((node) => node.nodeName)).toEqual(['#text', 'BR']);
    expect(() => root.removeChild(removed)).toThrow();
  });

  it('serializes like domino: escapes, void elements, lower-case tags', () => {
    const { table } = sample();
    expect(table.outerHTML).toBe(
      '<table><tr><td title="a &quot;b&quot; &amp; &lt;c&gt;&nbsp;">x &lt; y &amp; z&nbsp;<br>tail</td></tr></table>',
    );
  });

  it('clones deeply, independently of the original', () => {
    const { table, cell } = sample();
    const copy = table.cloneNode(true);
    cell.firstChild!.data = 'edited';
    expect(copy.textContent).toBe('x < y & z\u00a0tail');
    expect(copy.parentNode).toBeNull();
    expect(table.cloneNode().childNodes).toHaveLength(0);
  });
});
