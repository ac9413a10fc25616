import { describe, expect, it } from 'vitest';
import { compileScope, normalizeUrl, type CrawlScope } from '../../src/url/index.ts';

const SCOPES: readonly CrawlScope[] = ['same_hostname', 'same_domain', 'same_origin', 'all'];

/** Expected verdict per scope, in SCOPES order: hostname, domain, origin, all. */
type Verdicts = readonly [boolean, boolean, boolean, boolean];

function expectGraph(seed: string, links: ReadonlyArray<readonly [string, Verdicts]>): void {
  for (const [index, scope] of SCOPES.entries()) {
    const rule = compileScope(seed, scope);
    expect(rule.scope).toBe(scope);
    for (const [raw, verdicts] of links) {
      const link = normalizeUrl(raw);
      expect(link, raw).not.toBeNull();
      expect(rule.allows(link!), `${scope} from ${seed}: ${raw}`).toBe(verdicts[index]);
    }
  }
}

describe('compileScope on a graph crossing subdomains, domains, schemes and ports', () => {
  it('judges links from a subdomain seed with a default port', () => {
    expectGraph('https://shop.example.test/start', [
      ['https://shop.example.test/a', [true, true, true, true]],
      ['https://SHOP.example.test.:443/b', [true, true, true, true]],
      ['http://shop.example.test/a', [true, true, false, true]], // other scheme
      ['https://shop.example.test:8443/a', [true, true, false, true]], // other port
      ['http://shop.example.test:443/a', [true, true, false, true]], // port 443 but not https's default here
      ['https://sub.shop.example.test/a', [false, true, true, true]], // subdomain
      ['https://example.test/', [false, true, true, true]], // the registrable domain itself
      ['https://blog.example.test/', [false, true, true, true]], // sibling subdomain
      ['http://blog.example.test:8080/', [false, true, false, true]],
      ['https://site.test/', [false, false, false, true]], // other registrable domain
      ['https://notexample.test/', [false, false, false, true]], // shares a string suffix, not a label suffix
      ['https://shop.example.test.evil.test/', [false, false, false, true]], // seed host as a prefix
      ['https://shop.example.testing/', [false, false, false, true]],
      ['https://a.example.co.uk/', [false, false, false, true]],
    ]);
  });

  it('holds same_origin to an explicit seed port, by value and not by prefix', () => {
    expectGraph('https://shop.example.test:8443/', [
      ['https://sub.shop.example.test:8443/', [false, true, true, true]],
      ['https://shop.example.test:8443/x', [true, true, true, true]],
      ['https://shop.example.test/', [true, true, false, true]],
      ['https://shop.example.test:844/', [true, true, false, true]], // a prefix of the seed port
      ['https://shop.example.test:18443/', [true, true, false, true]], // ends with the seed port
      ['http://shop.example.test:8443/', [true, true, false, true]],
    ]);
    expectGraph('https://shop.example.test:844/', [
      ['https://shop.example.test:8443/', [true, true, false, true]], // starts with the seed port
    ]);
  });

  it('treats hosts under a multi-label public suffix (co.uk) by their registrable domain', () => {
    expectGraph('http://a.example.co.uk/', [
      ['http://b.example.co.uk/', [false, true, true, true]],
      ['http://deep.b.example.co.uk/', [false, true, true, true]],
      ['http://example.co.uk/', [false, true, true, true]],
      ['http://example2.co.uk/', [false, false, false, true]],
      ['http://co.uk/', [false, false, false, true]],
      ['http://a.example.co.uk.example2.co.uk/', [false, false, false, true]],
    ]);
  });

  it('treats each github.io site as its own domain (private suffixes count)', () => {
    expectGraph('https://x.github.io/repo/', [
      ['https://x.github.io/other/', [true, true, true, true]],
      ['https://docs.x.github.io/', [false, true, true, true]],
      ['https://y.github.io/', [false, false, false, true]],
      ['https://github.io/', [false, false, false, true]],
      ['https://github.com/x', [false, false, false, true]],
    ]);
  });

  it('keeps a subdomain that is itself under a listed suffix out of the seed domain', () => {
    // s3.amazonaws.com is a (private) public suffix below amazonaws.com: bucket.s3.amazonaws.com is someone else's site.
    expectGraph('https://amazonaws.com/', [
      ['https://www.amazonaws.com/', [false, true, true, true]],
      ['https://s3.amazonaws.com/', [false, false, false, true]],
      ['https://bucket.s3.amazonaws.com/', [false, false, false, true]],
    ]);
  });
});

describe('compileScope on seeds without a registrable domain', () => {
  it('matches an IPv4 seed only by its exact address, any port for same_domain', () => {
    expectGraph('http://127.0.0.1:8080/', [
      ['http://127.0.0.1:8080/a', [true, true, true, true]],
      ['http://127.0.0.1/a', [true, true, false, true]],
      ['https://127.0.0.1:8080/a', [true, true, false, true]],
      ['http://0x7f.0.0.1:8080/a', [true, true, true, true]], // another spelling of the same address
      ['http://127.0.0.2:8080/', [false, false, false, true]],
      ['http://27.0.0.1:8080/', [false, false, false, true]],
      ['http://localhost:8080/', [false, false, false, true]],
    ]);
  });

  it('matches an IPv6 seed only by its exact address', () => {
    expectGraph('http://[::1]:8080/', [
      ['http://[0:0::1]:8080/a', [true, true, true, true]],
      ['http://[::1]/a', [true, true, false, true]],
      ['http://[::2]:8080/', [false, false, false, true]],
      ['http://[::ffff:127.0.0.1]:8080/', [false, false, false, true]],
    ]);
  });

  it('matches localhost only by itself', () => {
    expectGraph('http://localhost:3000/', [
      ['http://localhost:3000/x', [true, true, true, true]],
      ['http://localhost:3001/x', [true, true, false, true]],
      ['http://api.localhost:3000/', [false, false, false, true]],
      ['http://127.0.0.1:3000/', [false, false, false, true]],
    ]);
  });

  it('matches a bare public suffix seed only by itself, not the sites under it', () => {
    expectGraph('http://co.uk/', [
      ['http://co.uk/x', [true, true, true, true]],
      ['http://example.co.uk/', [false, false, false, true]],
    ]);
  });
});

describe('compileScope seeds and inputs', () => {
  it('normalizes a raw seed to the same rule as its canonical form', () => {
    const raw = compileScope('HTTPS://Shop.Example.TEST.:443/start#x', 'same_origin');
    expect(raw.allows('https://sub.shop.example.test/')).toBe(true);
    expect(raw.allows('https://shop.example.test:443/')).toBe(false); // not normalized: :443 is never kept
    const hostname = compileScope('http://Site.TEST./', 'same_hostname');
    expect(hostname.allows('https://site.test:8443/x')).toBe(true);
  });

  it('refuses a seed that is not a crawlable http(s) URL', () => {
    expect(() => compileScope('mailto:a@site.test', 'all')).toThrow(TypeError);
    expect(() => compileScope('http://user:pw@site.test/', 'same_hostname')).toThrow(TypeError);
    expect(() => compileScope('/relative', 'same_domain')).toThrow(TypeError);
  });

  it('refuses an unknown scope value', () => {
    expect(() => compileScope('http://site.test/', 'same_planet' as CrawlScope)).toThrow(/unknown crawl scope/);
  });

  it('allows nothing but http(s) URLs, whatever the scope', () => {
    for (const scope of SCOPES) {
      const rule = compileScope('http://site.test/', scope);
      for (const other of ['ftp://site.test/', 'mailto:a@site.test', 'site.test/x', '//site.test/x', '']) {
        expect(rule.allows(other), `${scope}: ${other}`).toBe(false);
      }
    }
  });
});
