import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH, normalizeUrl } from '../../src/url/index.ts';

const PAGE = 'https://shop.example.test/catalog/list.html?page=2#top';

/** [why, input, base or undefined, expected canonical form or null] */
const TABLE: ReadonlyArray<readonly [string, string, string | undefined, string | null]> = [
  // scheme and host
  ['lower-cases scheme and host', 'HTTP://Site.TEST/Path', undefined, 'http://site.test/Path'],
  ['keeps the path case', 'http://site.test/A/b/C', undefined, 'http://site.test/A/b/C'],
  ['removes one trailing dot of the host', 'http://Example.COM./', undefined, 'http://example.com/'],
  ['removes several trailing dots of the host', 'http://example.com../x', undefined, 'http://example.com/x'],
  ['removes the trailing dot before a port', 'https://site.test.:8443/a', undefined, 'https://site.test:8443/a'],
  ['reads an escaped trailing dot as a dot', 'http://site.test%2e/', undefined, 'http://site.test/'],
  ['rejects a host made of dots only', 'http://./', undefined, null],
  ['rejects a host with a leading dot', 'http://.site.test/', undefined, null],
  ['rejects a host with an empty label', 'http://a..site.test/', undefined, null],
  ['keeps IDN hosts as punycode', 'http://Bücher.example/', undefined, 'http://xn--bcher-kva.example/'],
  ['decodes an escaped host', 'http://ex%41mple.test/', undefined, 'http://example.test/'],
  ['rejects an invalid punycode host', 'http://xn--a.test/', undefined, null],
  ['keeps an IPv4 literal', 'http://127.0.0.1:8080/x', undefined, 'http://127.0.0.1:8080/x'],
  ['writes hex IPv4 in dotted decimal', 'http://0x7f.1/', undefined, 'http://127.0.0.1/'],
  ['re-reads a dotted host that becomes an IPv4 once trimmed', 'http://0x7f.1../', undefined, 'http://127.0.0.1/'],
  ['keeps a compressed lower-case IPv6 literal', 'http://[2001:DB8:0:0::1]:8080/', undefined, 'http://[2001:db8::1]:8080/'],
  ['drops :80 on an IPv6 literal', 'http://[::1]:80/a', undefined, 'http://[::1]/a'],
  // ports
  ['drops :80 for http', 'http://site.test:80/a', undefined, 'http://site.test/a'],
  ['drops :443 for https', 'https://site.test:443/a', undefined, 'https://site.test/a'],
  ['drops a default port written with leading zeros', 'http://site.test:0080/', undefined, 'http://site.test/'],
  ['keeps :443 for http', 'http://site.test:443/', undefined, 'http://site.test:443/'],
  ['keeps :80 for https', 'https://site.test:80/', undefined, 'https://site.test:80/'],
  ['keeps :8080', 'http://site.test:8080/a', undefined, 'http://site.test:8080/a'],
  ['rejects a port out of range', 'http://site.test:65536/', undefined, null],
  // path
  ['turns an empty path into /', 'http://site.test', undefined, 'http://site.test/'],
  ['turns an empty path before a query into /', 'http://site.test?q=1', undefined, 'http://site.test/?q=1'],
  ['resolves . and .. segments', 'http://site.test/a/./b/../c', undefined, 'http://site.test/a/c'],
  ['does not climb above the root', 'http://site.test/a/../../../c', undefined, 'http://site.test/c'],
  ['resolves %2e%2e as ..', 'http://site.test/a/b/%2e%2e/c', undefined, 'http://site.test/a/c'],
  ['resolves mixed-case .%2E as ..', 'http://site.test/a/b/.%2E/c', undefined, 'http://site.test/a/c'],
  ['resolves %2E as .', 'http://site.test/a/%2E/c', undefined, 'http://site.test/a/c'],
  ['decodes %2e inside a longer segment', 'http://site.test/a/%2e%2e%2e/b%2ehtml', undefined, 'http://site.test/a/.../b.html'],
  ['decodes %7E to ~', 'http://site.test/%7Euser', undefined, 'http://site.test/~user'],
  ['decodes lower-case %7e to ~', 'http://site.test/%7euser', undefined, 'http://site.test/~user'],
  ['leaves a literal ~ alone', 'http://site.test/~user', undefined, 'http://site.test/~user'],
  ['decodes every unreserved escape', 'http://site.test/%41%5a%61%7a%30%39%2d%2e%5f%7e', undefined, 'http://site.test/AZaz09-._~'],
  ['upper-cases the hex of other escapes', 'http://site.test/caf%c3%a9/a%2fb', undefined, 'http://site.test/caf%C3%A9/a%2Fb'],
  ['escapes raw non-ASCII path characters', 'http://site.test/café', undefined, 'http://site.test/caf%C3%A9'],
  ['keeps an escaped slash escaped', 'http://site.test/a%2Fb', undefined, 'http://site.test/a%2Fb'],
  ['keeps an escaped percent escaped', 'http://site.test/100%25', undefined, 'http://site.test/100%25'],
  ['leaves malformed escapes as they are', 'http://site.test/%zz/%4', undefined, 'http://site.test/%zz/%4'],
  ['keeps an escape that a stray % would turn into a new one', 'http://site.test/%%41a', undefined, 'http://site.test/%%41a'],
  ['keeps an escape that would complete a stray %4', 'http://site.test/%4%31', undefined, 'http://site.test/%4%31'],
  ['decodes a non-hex unreserved escape after a stray %', 'http://site.test/%%7e', undefined, 'http://site.test/%~'],
  ['escapes spaces in the path', 'http://site.test/a b', undefined, 'http://site.test/a%20b'],
  // query and fragment
  ['drops the fragment', 'http://site.test/a#section', undefined, 'http://site.test/a'],
  ['drops an empty fragment', 'http://site.test/a#', undefined, 'http://site.test/a'],
  ['drops the fragment after a query', 'http://site.test/a?b=1#c#d', undefined, 'http://site.test/a?b=1'],
  ['keeps the query order', 'http://site.test/s?b=2&a=1&b=1', undefined, 'http://site.test/s?b=2&a=1&b=1'],
  ['keeps query escapes untouched', 'http://site.test/s?q=%7e%c3%a9+x', undefined, 'http://site.test/s?q=%7e%c3%a9+x'],
  ['keeps an empty query', 'http://site.test/a?', undefined, 'http://site.test/a?'],
  ['keeps a ? escaped in the path apart from the query', 'http://site.test/a%3Fb?c', undefined, 'http://site.test/a%3Fb?c'],
  // whitespace
  ['trims surrounding whitespace', '  \t http://site.test/a \n ', undefined, 'http://site.test/a'],
  ['removes newlines inside, as browsers do', 'http://site.test/a\n/b', undefined, 'http://site.test/a/b'],
  // schemes and userinfo
  ['accepts an upper-case https scheme', 'HTTPS://site.test/', undefined, 'https://site.test/'],
  ['rejects mailto:', 'mailto:someone@site.test', undefined, null],
  ['rejects javascript:', 'javascript:void(0)', PAGE, null],
  ['rejects javascript: split by a newline', 'java\nscript:alert(1)', PAGE, null],
  ['accepts http: split by a carriage return', 'ht\rtp://site.test/', undefined, 'http://site.test/'],
  ['rejects data:', 'data:text/html,<p>hi</p>', PAGE, null],
  ['rejects tel:', 'tel:+441234', PAGE, null],
  ['rejects ftp:', 'ftp://site.test/file', undefined, null],
  ['rejects ws:', 'ws://site.test/socket', undefined, null],
  ['rejects file:', 'file:///etc/passwd', undefined, null],
  ['rejects a username', 'http://user@site.test/', undefined, null],
  ['rejects a username and password', 'http://user:pass@site.test/', undefined, null],
  ['rejects a password alone', 'http://:pass@site.test/', undefined, null],
  ['accepts an empty userinfo, which carries no credentials', 'http://@site.test/', undefined, 'http://site.test/'],
  ['rejects garbage', 'http://', undefined, null],
  ['rejects a relative URL without a base', '/a/b', undefined, null],
  ['rejects an empty string without a base', '', undefined, null],
  // relative links
  ['resolves a root-relative link', '/b/c?d=1', PAGE, 'https://shop.example.test/b/c?d=1'],
  ['resolves a path-relative link', 'item.html', PAGE, 'https://shop.example.test/catalog/item.html'],
  ['resolves ../ against the base', '../about', PAGE, 'https://shop.example.test/about'],
  ['resolves a query-only link', '?page=3', PAGE, 'https://shop.example.test/catalog/list.html?page=3'],
  ['resolves a fragment-only link to the page itself', '#reviews', PAGE, 'https://shop.example.test/catalog/list.html?page=2'],
  ['resolves an empty href to the page itself', '', PAGE, 'https://shop.example.test/catalog/list.html?page=2'],
  ['resolves a protocol-relative link with the base scheme', '//Other.TEST/x', PAGE, 'https://other.test/x'],
  ['resolves against a <base href> on another host', 'x/y', 'https://cdn.site.test/assets/', 'https://cdn.site.test/assets/x/y'],
  ['ignores the base for an absolute link', 'http://site.test/a', PAGE, 'http://site.test/a'],
  ['resolves backslashes like slashes', '\\\\other.test\\x', PAGE, 'https://other.test/x'],
  ['rejects a link when the base is not a URL', 'a', 'not a url', null],
];

describe('normalizeUrl', () => {
  it.each(TABLE)('%s: %j', (_why, input, base, expected) => {
    expect(normalizeUrl(input, base)).toBe(expected);
  });

  it('is idempotent on every canonical form of the table', () => {
    for (const [, input, base, expected] of TABLE) {
      if (expected === null) continue;
      expect(normalizeUrl(expected), `${input} -> ${expected}`).toBe(expected);
    }
  });

  it('makes /%7euser, /%7Euser and /~user one URL', () => {
    const forms = ['http://site.test/%7euser', 'http://site.test/%7Euser', 'http://site.test/~user', 'HTTP://SITE.TEST.:80/~user#x'];
    expect(new Set(forms.map((u) => normalizeUrl(u))).size).toBe(1);
  });

  it(`accepts a URL of exactly ${MAX_URL_LENGTH} characters and rejects a longer one`, () => {
    const prefix = 'http://site.test/';
    const exact = prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length);
    expect(normalizeUrl(exact)).toBe(exact);
    expect(normalizeUrl(exact + 'a')).toBeNull();
  });

  it('rejects a URL that grows past the limit once its path is escaped', () => {
    const prefix = 'http://site.test/';
    // 3000 raw 'é' become 3000 × '%C3%A9' (18000 characters) although the input is short enough
    expect(normalizeUrl(prefix + 'é'.repeat(3000))).toBeNull();
  });
});
