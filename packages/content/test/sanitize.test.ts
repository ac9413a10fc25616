import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { html, page } from './fixtures.ts';

const PROSE = '<p>The harbour master publishes the tide tables every spring, and the survey team checks the gauge each morning before the boats go out.</p>';

function sanitized(content: string): string {
  const result = normalizeContent(html(page(`<main>${PROSE}${content}</main>`)));
  return result.html ?? '';
}

describe('sanitized HTML', () => {
  it('drops script, style, noscript, template, iframe, object and embed elements with their content', () => {
    const out = sanitized(
      '<script>alert(1)</script><style>p{color:red}</style><noscript>Enable scripts</noscript><template><p>tpl</p></template>' +
        '<iframe src="https://evil.example/"></iframe><object data="x.swf"><p>fallback</p></object><embed src="x.swf">',
    );
    for (const bad of ['<script', 'alert(1)', '<style', 'color:red', '<noscript', 'Enable scripts', '<template', 'tpl', '<iframe', '<object', '<embed', 'x.swf']) {
      expect(out).not.toContain(bad);
    }
    expect(out).toContain('tide tables');
  });

  it('removes event handler and style attributes', () => {
    const out = sanitized('<p onclick="steal()" onmouseover="steal()" style="display:none">Handlers</p><img src="/a.png" onerror="steal()" alt="a">');
    expect(out).toContain('<p>Handlers</p>');
    expect(out).not.toMatch(/\son\w+=/i);
    expect(out).not.toContain('style=');
    expect(out).not.toContain('steal');
  });

  it('removes javascript:, vbscript: and data: URLs from every URL attribute', () => {
    const out = sanitized(
      '<a href="javascript:alert(1)">j</a><a href=" JaVaScRiPt:alert(2)">j2</a><a href="java&#x09;script:alert(3)">j3</a>' +
        '<a href="vbscript:msgbox(1)">v</a><a href="data:text/html;base64,PHNjcmlwdD4=">d</a>' +
        '<img src="javascript:alert(4)" alt="i"><img srcset="/ok.png 1x, javascript:alert(5) 2x" alt="s">' +
        '<form action="javascript:alert(6)"><button formaction="javascript:alert(7)">go</button></form>' +
        '<a xlink:href="javascript:alert(8)">x</a><blockquote cite="javascript:alert(9)">quote</blockquote>',
    );
    expect(out).not.toMatch(/javascript|vbscript|data:text/i);
    expect(out).toContain('>j</a>');
    expect(out).toContain('quote');
  });

  it('keeps http(s), mailto and tel links but drops other schemes', () => {
    const out = sanitized('<a href="mailto:desk@example.com">m</a><a href="tel:+123">t</a><a href="file:///etc/passwd">f</a><a href="myapp://open">c</a>');
    expect(out).toContain('<a href="mailto:desk@example.com">m</a>');
    expect(out).toContain('<a href="tel:+123">t</a>');
    expect(out).toContain('<a>f</a>');
    expect(out).toContain('<a>c</a>');
  });

  it('keeps data:image sources but not data: links', () => {
    const out = sanitized('<img src="data:image/png;base64,iVBORw0KGgo=" alt="pixel"><a href="data:image/png;base64,iVBORw0KGgo=">link</a>');
    expect(out).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="pixel">');
    expect(out).toContain('<a>link</a>');
  });

  it("gives a lazily loaded image its real address, in the HTML and the Markdown, instead of its placeholder's", () => {
    const placeholder = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    const content = `<img src="${placeholder}" data-src="/img/tide-gauge.jpg" alt="The tide gauge at dawn"><img data-srcset="/img/quay.jpg 1x, /img/quay@2x.jpg 2x" alt="The quay"><img src="/img/real.png" data-src="/img/other.png" alt="Real"><img src="${placeholder}" data-src="javascript:alert(1)" alt="Bad">`;
    const out = sanitized(content);
    expect(out).toContain('src="https://news.example.com/img/tide-gauge.jpg"');
    expect(out).toContain('src="https://news.example.com/img/quay.jpg"');
    expect(out).toContain('src="https://news.example.com/img/real.png"');
    expect(out).not.toContain('other.png');
    expect(out).not.toContain('javascript');
    const md = normalizeContent(html(page(`<main>${PROSE.replace('</p>', ` ${content}</p>`)}</main>`))).markdown ?? '';
    expect(md).toContain('![The tide gauge at dawn](https://news.example.com/img/tide-gauge.jpg)');
    expect(md).toContain('![The quay](https://news.example.com/img/quay.jpg)');
  });

  it('writes an image without a picture as nothing in the Markdown, and no empty link around it', () => {
    // A card's image whose src is an empty SVG frame sized for the real picture (set by a script) or missing.
    const frame = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%203000%202393'%3E%3C/svg%3E";
    const chart = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUg'.repeat(20)}`;
    const content = `<ul><li><a href="/p/1"><img src="${frame}" alt="solar generator kit on a lawn"></a><a href="/p/1">Weekender kit</a></li>
      <li><a href="/p/2"><img alt="camping lantern"></a><a href="/p/2">Lantern</a></li>
      <li><img srcset="/img/quay.jpg 1x, /img/quay@2x.jpg 2x" alt="The quay"> and <img src="${chart}" alt="Tide chart"></li></ul>`;
    const md = normalizeContent(html(page(`<main>${PROSE}${content}</main>`))).markdown ?? '';
    expect(md).toContain('- [Weekender kit](https://news.example.com/p/1)');
    expect(md).toContain('- [Lantern](https://news.example.com/p/2)');
    expect(md).not.toContain('solar generator kit');
    expect(md).not.toContain('camping lantern');
    expect(md).not.toContain('[]');
    // A srcset alone is the picture; a real inline picture (not a placeholder) keeps its alt text.
    expect(md).toContain('![The quay](https://news.example.com/img/quay.jpg)');
    expect(md).toContain('Tide chart');
    // The HTML keeps what the page had.
    expect(sanitized(content)).toContain('alt="solar generator kit on a lawn"');
  });

  it('makes relative URLs absolute, srcset included', () => {
    const out = sanitized('<a href="../maps/">maps</a><img src="img/a.png" srcset="img/a.png 1x, /img/b.png 2x" alt="a">');
    expect(out).toContain('<a href="https://news.example.com/maps/">maps</a>');
    expect(out).toContain('src="https://news.example.com/stories/img/a.png"');
    expect(out).toContain('srcset="https://news.example.com/stories/img/a.png 1x, https://news.example.com/img/b.png 2x"');
  });

  it('escapes text and attribute values so nothing breaks out of them', () => {
    const out = sanitized('<p title="a&quot;&gt;&lt;script&gt;">1 &lt; 2 &amp; &lt;b&gt;</p>');
    expect(out).toContain('<p title="a&quot;&gt;&lt;script&gt;">1 &lt; 2 &amp; &lt;b&gt;</p>');
  });
});
