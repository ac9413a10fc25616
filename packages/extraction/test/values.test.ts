import { describe, expect, it } from 'vitest';
import { extraction, run } from './helpers.ts';

const one = (html: string, field: Parameters<typeof extraction>[0][number]) => run(html, extraction([field])).records;

describe('records', () => {
  it('gives one record per base match in document order, every field present (null when it matches nothing)', () => {
    const html = `<ul><li class="item"><b>one</b><i>1</i></li><li class="item"><b>two</b></li><li class="other"><b>x</b></li><li class="item"><i>3</i></li></ul>`;
    const out = run(html, extraction([{ name: 'name', selector: 'b', type: 'text' }, { name: 'n', selector: 'i', type: 'text' }]));
    expect(out.records).toEqual([
      { name: 'one', n: '1' },
      { name: 'two', n: null },
      { name: null, n: '3' },
    ]);
    expect(out.records.map((r) => Object.keys(r))).toEqual([['name', 'n'], ['name', 'n'], ['name', 'n']]);
  });

  it('evaluates fields inside their record only (the first match for text)', () => {
    const html = `<div class="item"><p>a</p><p>b</p></div><div class="item"></div><p>outside</p>`;
    expect(one(html, { name: 'p', selector: 'p', type: 'text' })).toEqual([{ p: 'a' }, { p: null }]);
  });

  it('runs on the whole document, not only the main content', () => {
    const html = `<html><body><nav><a class="item" href="/a">A</a></nav><main><p>Body text.</p></main><footer><a class="item" href="/b">B</a></footer></body></html>`;
    expect(run(html, extraction([{ name: 't', selector: 'a.item', type: 'list' }], { base: 'body' })).records).toEqual([{ t: ['A', 'B'] }]);
  });

  it('accepts relative field selectors (> and :scope)', () => {
    const html = `<div class="item"><span>direct</span><p><span>nested</span></p></div>`;
    expect(one(html, { name: 's', selector: '> p > span', type: 'text' })).toEqual([{ s: 'nested' }]);
    expect(one(html, { name: 's', selector: ':scope > span', type: 'text' })).toEqual([{ s: 'direct' }]);
  });

  it('keeps a field named like an Object.prototype member as an ordinary key', () => {
    const out = one(`<div class="item"><b>x</b></div>`, { name: 'constructor', selector: 'b', type: 'text' });
    expect(JSON.parse(JSON.stringify(out))).toEqual([{ constructor: 'x' }]);
  });
});

describe('field types', () => {
  it('text: whitespace collapsed, block elements and <br> separate words, inline elements do not', () => {
    const html = `<div class="item"><div class="t">  <h3>Big\n\n  title</h3><p>First<br>line</p><div>cell</div><span>in</span><b>line</b> &amp; more&nbsp;text</div></div>`;
    expect(one(html, { name: 't', selector: '.t', type: 'text' })).toEqual([{ t: 'Big title First line cell inline & more text' }]);
  });

  it('text: leaves out script, style, template and noscript text', () => {
    const html = `<div class="item"><p>Shown<script>var x = 1;</script><style>.a{}</style><template><b>later</b></template><noscript>enable js</noscript> text</p></div>`;
    expect(one(html, { name: 't', selector: 'p', type: 'text' })).toEqual([{ t: 'Shown text' }]);
  });

  it('text: a script selected on purpose gives its content (JSON-LD)', () => {
    const html = `<div class="item"><script type="application/ld+json">{"@type": "Product"}</script></div>`;
    expect(one(html, { name: 'ld', selector: 'script[type="application/ld+json"]', type: 'text' })).toEqual([{ ld: '{"@type": "Product"}' }]);
  });

  it('text: an element with no text gives an empty string (it matched), not null', () => {
    expect(one(`<div class="item"><img src="a.png"></div>`, { name: 't', selector: 'img', type: 'text' })).toEqual([{ t: '' }]);
  });

  it('attribute: the value of the first match, null when that element lacks it', () => {
    const html = `<div class="item"><a href="/x" data-id=" 7 ">x</a></div><div class="item"><a>y</a></div>`;
    expect(one(html, { name: 'id', selector: 'a', type: 'attribute', attribute: 'data-id' })).toEqual([{ id: ' 7 ' }, { id: null }]);
    expect(one(html, { name: 'id', selector: 'a', type: 'attribute', attribute: 'DATA-ID' })).toEqual([{ id: ' 7 ' }, { id: null }]);
  });

  it('html: inner HTML sanitized like the html output (scripts, handlers and styles out, links absolute)', () => {
    const html = `<div class="item"><div class="body"><p onclick="steal()" style="color:red">Hi <a href="/about">there</a></p><script>alert(1)</script><img src="pic.png" onerror="x()"></div></div>`;
    expect(one(html, { name: 'h', selector: '.body', type: 'html' })).toEqual([
      { h: '<p>Hi <a href="https://site.example/about">there</a></p><img src="https://site.example/list/pic.png">' },
    ]);
  });

  it('list: every match\'s text, or with attribute every match\'s value; null when nothing matches', () => {
    const html = `<div class="item"><a href="/a">A</a><a>B</a><a href="/c"> C </a></div><div class="item"></div>`;
    expect(one(html, { name: 'l', selector: 'a', type: 'list' })).toEqual([{ l: ['A', 'B', 'C'] }, { l: null }]);
    expect(one(html, { name: 'l', selector: 'a', type: 'list', attribute: 'href' })).toEqual([{ l: ['/a', '/c'] }, { l: null }]);
  });
});

describe('transforms', () => {
  const html = `<div class="item"><a href="  ../docs/Page.html?q=1#top  " title="  Mixed Case  ">Ünïcode Text</a></div>`;

  it('strip trims attribute values (text is already collapsed)', () => {
    expect(one(html, { name: 'v', selector: 'a', type: 'attribute', attribute: 'title', transform: 'strip' })).toEqual([{ v: 'Mixed Case' }]);
  });

  it('lowercase and uppercase', () => {
    expect(one(html, { name: 'v', selector: 'a', type: 'text', transform: 'lowercase' })).toEqual([{ v: 'ünïcode text' }]);
    expect(one(html, { name: 'v', selector: 'a', type: 'text', transform: 'uppercase' })).toEqual([{ v: 'ÜNÏCODE TEXT' }]);
  });

  it('absolute_url resolves against the page URL; what cannot be resolved is null', () => {
    expect(one(html, { name: 'v', selector: 'a', type: 'attribute', attribute: 'href', transform: 'absolute_url' })).toEqual([
      { v: 'https://site.example/docs/Page.html?q=1#top' },
    ]);
    const bad = `<div class="item"><a href="http://[::1">x</a><a href="">y</a></div>`;
    expect(one(bad, { name: 'v', selector: 'a', type: 'attribute', attribute: 'href', transform: 'absolute_url' })).toEqual([{ v: null }]);
    expect(one(bad, { name: 'v', selector: 'a', type: 'list', attribute: 'href', transform: 'absolute_url' })).toEqual([{ v: null }]);
  });

  it('applies to every item of a list', () => {
    const list = `<div class="item"><a href="/a">A</a><a href="http://[bad">B</a><a href="b/c">C</a></div>`;
    expect(one(list, { name: 'v', selector: 'a', type: 'list', attribute: 'href', transform: 'absolute_url' })).toEqual([
      { v: ['https://site.example/a', 'https://site.example/list/b/c'] },
    ]);
    expect(one(list, { name: 'v', selector: 'a', type: 'list', transform: 'lowercase' })).toEqual([{ v: ['a', 'b', 'c'] }]);
  });
});

describe('computed templates', () => {
  const html = `<div class="item"><h2>Title</h2><span class="p">$5</span><i>x</i><i>y</i></div><div class="item"><h2>No price</h2></div>`;
  const fields = [
    { name: 'title', selector: 'h2', type: 'text' as const },
    { name: 'price', selector: '.p', type: 'text' as const },
    { name: 'tags', selector: 'i', type: 'list' as const },
  ];
  const compute = (template: string) =>
    run(html, extraction(fields, { computed: [{ name: 'c', operation: 'template', template }] })).records.map((r) => r.c);

  it('replaces {name} with the field value and follows the fields in the record', () => {
    const out = run(html, extraction(fields, { computed: [{ name: 'c', operation: 'template', template: '{title}: {price}' }] }));
    expect(out.records[0]).toEqual({ title: 'Title', price: '$5', tags: ['x', 'y'], c: 'Title: $5' });
    expect(Object.keys(out.records[0])).toEqual(['title', 'price', 'tags', 'c']);
  });

  it('turns {{ and }} into literal braces', () => {
    expect(compute('{{"title": "{title}"}}')).toEqual(['{"title": "Title"}', '{"title": "No price"}']);
    expect(compute('{{{title}}}')).toEqual(['{Title}', '{No price}']);
    expect(compute('{{title}}')).toEqual(['{title}', '{title}']);
  });

  it('is null when a referenced field is null', () => {
    expect(compute('{title} costs {price}')).toEqual(['Title costs $5', null]);
  });

  it('joins a list with ", "', () => {
    expect(compute('tags: {tags}')).toEqual(['tags: x, y', null]);
  });

  it('may be empty or have no reference', () => {
    expect(compute('')).toEqual(['', '']);
    expect(compute('fixed')).toEqual(['fixed', 'fixed']);
  });
});

describe('selectors over long sibling lists', () => {
  it('the adjacent sibling combinator does not rescan the list for every sibling', () => {
    const html = `<ul class="item">${'<li>a</li>'.repeat(20_000)}<li class="last">z</li></ul>`;
    const started = performance.now();
    const out = run(html, extraction([
      { name: 'next', selector: 'li + li.last', type: 'text' },
      { name: 'all', selector: 'li + li', type: 'list' },
    ]));
    expect(out.records[0].next).toBe('z');
    expect(out.records[0].all).toHaveLength(20_000);
    // Quadratic (200 million steps) would take many seconds; linear takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
