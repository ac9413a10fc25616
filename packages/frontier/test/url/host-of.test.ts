import { describe, expect, it } from 'vitest';
import { hostOf } from '../../src/url/index.ts';

describe('hostOf', () => {
  it.each([
    ['http://site.test/', 'site.test'],
    ['https://sub.shop.example.test:8443/a?b#c', 'sub.shop.example.test'],
    ['http://127.0.0.1:8080/x', '127.0.0.1'],
    ['http://[::1]:8080/x', '[::1]'],
    ['http://[2001:db8::1]/', '[2001:db8::1]'],
    ['https://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
  ])('slices the host of normalized %s', (url, host) => {
    expect(hostOf(url)).toBe(host);
  });

  it('normalizes first when the URL visibly is not normalized', () => {
    expect(hostOf('HTTP://Site.TEST./a')).toBe('site.test');
    expect(hostOf('http://Site.test/a')).toBe('site.test');
    expect(hostOf('http://site.test./a')).toBe('site.test');
    expect(hostOf('http://ex%41mple.test/')).toBe('example.test');
  });

  it('throws on a URL that is not crawlable', () => {
    expect(() => hostOf('http://user@site.test/')).toThrow(TypeError);
    expect(() => hostOf('http://user:pw@site.test/')).toThrow(TypeError);
    expect(() => hostOf('mailto:a@site.test')).toThrow(TypeError);
    expect(() => hostOf('/relative')).toThrow(TypeError);
  });
});
