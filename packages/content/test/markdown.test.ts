import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { html, page } from './fixtures.ts';

const INTRO = '<p>Each table below lists the tide heights measured at the harbour gauge during the spring survey, in metres above chart datum.</p>';

function markdownOf(body: string): string {
  return normalizeContent(html(page(`<main>${INTRO}${body}</main>`))).markdown;
}

describe('markdown conversion', () => {
  it('keeps a table with a header row as a GFM table', () => {
    const markdown = markdownOf(
      '<table><thead><tr><th>Day</th><th>High tide</th></tr></thead><tbody><tr><td>Monday</td><td>4.2 m</td></tr><tr><td>Tuesday</td><td>4.5 m</td></tr></tbody></table>',
    );
    expect(markdown).toContain('| Day | High tide |\n| --- | --- |\n| Monday | 4.2 m |\n| Tuesday | 4.5 m |');
  });

  it('gives a header-less data table an empty header row instead of promoting its first row or leaving raw HTML', () => {
    const markdown = markdownOf('<table><tr><td>Port</td><td>Range</td></tr><tr><td>Northcove</td><td>3.1 m</td></tr></table>');
    expect(markdown).toContain('|  |  |\n| --- | --- |\n| Port | Range |\n| Northcove | 3.1 m |');
    expect(markdown).not.toContain('<table');
  });

  it('keeps a table cell on one line, its paragraphs joined with <br>, and escapes pipes in it', () => {
    const markdown = markdownOf('<table><tr><th>Note</th><th>Value</th></tr><tr><td><p>calm</p><p>sea</p></td><td>a|b</td></tr></table>');
    expect(markdown).toContain('| calm<br>sea | a\\|b |');
  });

  it('fences code blocks and keeps their language class', () => {
    const markdown = markdownOf('<pre><code class="language-python">def tide(h):\n    return h * 2\n</code></pre>');
    expect(markdown).toContain('```python\ndef tide(h):\n    return h * 2\n```');
  });

  it('fences a bare <pre> too, turning <br> into line breaks', () => {
    const markdown = markdownOf('<pre>first line<br>second line</pre>');
    expect(markdown).toContain('```\nfirst line\nsecond line\n```');
  });

  it('keeps the lines of code that a highlighter split into one element per line', () => {
    const markdown = markdownOf('<pre class="highlight"><code class="lang-rust"><div class="line"><span>fn</span> main() {</div><div class="line">    run();</div><div class="line">}</div></code></pre>');
    expect(markdown).toContain('```rust\nfn main() {\n    run();\n}\n```');
  });

  it('uses a longer fence when the code itself contains backticks', () => {
    const markdown = markdownOf('<pre><code>echo ```quoted```</code></pre>');
    expect(markdown).toContain('````\necho ```quoted```\n````');
  });

  it('keeps headings, lists, emphasis and blockquotes', () => {
    const markdown = markdownOf(
      '<h2>Survey notes</h2><ol><li>Arrive early</li><li>Record the <strong>lowest</strong> reading</li></ol><blockquote><p>The sea keeps its own time.</p></blockquote>',
    );
    expect(markdown).toContain('## Survey notes');
    expect(markdown).toContain('1. Arrive early\n2. Record the **lowest** reading');
    expect(markdown).toContain('> The sea keeps its own time.');
  });

  it('makes link and image addresses absolute', () => {
    const markdown = markdownOf('<p>See <a href="../charts/north.html">the north chart</a> and <img src="/img/gauge.png" alt="gauge"></p>');
    expect(markdown).toContain('[the north chart](https://news.example.com/charts/north.html)');
    expect(markdown).toContain('![gauge](https://news.example.com/img/gauge.png)');
  });

  it('keeps a card link that wraps a heading on one line', () => {
    const markdown = markdownOf('<a href="/storm"><h3>Storm season</h3><p>What to expect</p></a>');
    expect(markdown).toContain('[**Storm season** What to expect](https://news.example.com/storm)');
  });

  it('drops links that have nothing to show', () => {
    const markdown = markdownOf('<p>Tide tables <a href="/icon"><span> </span></a>are free.</p>');
    expect(markdown).not.toContain('](https://news.example.com/icon)');
  });
});
