import { describe, expect, it } from 'vitest';
import { registrableDomain } from '../../src/url/index.ts';

describe('registrableDomain (tldts, private suffixes counted as public)', () => {
  it('treats an unlisted TLD such as .test as a one-label public suffix', () => {
    // .test is reserved (RFC 2606) and absent from the PSL; tldts falls back to the last label as the suffix.
    expect(registrableDomain('a.example.test')).toBe('example.test');
    expect(registrableDomain('sub.shop.example.test')).toBe('example.test');
    expect(registrableDomain('site.test')).toBe('site.test');
  });

  it('uses multi-label ICANN suffixes', () => {
    expect(registrableDomain('a.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('b.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomain('example2.co.uk')).toBe('example2.co.uk');
  });

  it('counts private suffixes such as github.io', () => {
    expect(registrableDomain('x.github.io')).toBe('x.github.io');
    expect(registrableDomain('docs.x.github.io')).toBe('x.github.io');
  });

  it('has none for a bare public suffix, localhost or an IP literal', () => {
    for (const host of ['co.uk', 'github.io', 'com', 'test', 'localhost', '127.0.0.1', '[::1]']) {
      expect(registrableDomain(host), host).toBeNull();
    }
  });

  it('reads punycode hosts as they are', () => {
    expect(registrableDomain('www.xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });
});
