import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { articlePage, html, page } from './fixtures.ts';

describe('page links', () => {
  it('lists every link of the whole page, absolute, without fragments, each once, in page order', () => {
    const { links } = normalizeContent(html(articlePage()));
    expect(links).toEqual([
      'https://news.example.com/',
      'https://news.example.com/news',
      'https://news.example.com/travel',
      'https://news.example.com/science',
      'https://news.example.com/guides/tide-tables',
      'https://social.example/share',
      'https://news.example.com/a',
      'https://news.example.com/b',
      'https://news.example.com/privacy',
    ]);
  });

  it('resolves against <base href> and keeps only http(s) links', () => {
    const body = page(
      `<a href="one">1</a> <a href="one#part">1 again</a> <a href="HTTPS://Other.example/x?q=1">2</a>
       <a href="mailto:a@b.example">mail</a> <a href="javascript:void(0)">js</a> <a href="tel:123">tel</a>
       <a href="ftp://files.example/f">ftp</a> <a href="http://[bad">bad</a> <a>none</a>`,
      '<base href="https://cdn.example.org/docs/">',
    );
    const { links } = normalizeContent(html(body));
    expect(links).toEqual(['https://cdn.example.org/docs/one', 'https://other.example/x?q=1']);
  });

  it('includes links of hidden menus, which crawlers still want', () => {
    const { links } = normalizeContent(html(page('<p>Text</p><dialog><a href="/in-dialog">x</a><a href="/in-dialog-2">x2</a></dialog><div hidden><a href="/hidden">y</a><a href="/hidden-2">z</a></div>')));
    expect(links).toEqual(['https://news.example.com/in-dialog', 'https://news.example.com/in-dialog-2', 'https://news.example.com/hidden', 'https://news.example.com/hidden-2']);
  });
});
