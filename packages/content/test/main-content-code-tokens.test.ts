import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: a syntax highlighter's token classes ("token comment", "hljs-comment", "token tag") read as
 * furniture words, so a code block lost its comment lines (and Markdown no longer said what the page showed). Inside
 * <pre> and <code> classes are never furniture. Our own small HTML, shaped like Prism's and highlight.js's output.
 */
describe('code blocks', () => {
  it("keeps a highlighted code block's comment lines", () => {
    const prism = `<pre class="prism-code language-js"><code><span class="token-line"><span class="token comment">// moor the boat before the tide turns</span></span>
<span class="token-line"><span class="token keyword">const</span> line <span class="token operator">=</span> <span class="token function">tie</span>(boat);</span></code></pre>`;
    const hljs = `<pre><code class="hljs language-python"><span class="hljs-comment"># count the berths still free</span>
free = <span class="hljs-built_in">len</span>(berths)</code></pre>`;
    const md = normalizeContent({
      body: Buffer.from(page(`<main><article><h1>Mooring scripts</h1><p>Two small scripts the harbour office runs every morning before the first ferry.</p>${prism}<p>And the second one.</p>${hljs}</article></main>`)),
      contentType: 'text/html; charset=utf-8',
      url: 'https://docs.example.com/scripts',
    }).markdown;
    expect(md).toContain('// moor the boat before the tide turns');
    expect(md).toContain('# count the berths still free');
    expect(md).toContain('const line = tie(boat);');
  });
});
