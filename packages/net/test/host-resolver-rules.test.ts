import { describe, expect, it } from 'vitest';
import { HostResolverRules, NOT_FOUND_TARGET } from '../src/index.ts';

describe('HostResolverRules', () => {
  it('maps subdomains of a *. pattern but not the apex, like Chromium', () => {
    const rules = HostResolverRules.parse('MAP *.example.test 127.0.0.1');
    expect(rules.map('a.example.test')).toBe('127.0.0.1');
    expect(rules.map('deep.a.example.test')).toBe('127.0.0.1');
    expect(rules.map('example.test')).toBeNull();
    expect(rules.map('badexample.test')).toBeNull();
  });

  it('maps an exact pattern only for that host', () => {
    const rules = HostResolverRules.parse('MAP *.example.test 127.0.0.1, MAP shop.example.co.uk 127.0.0.1');
    expect(rules.map('shop.example.co.uk')).toBe('127.0.0.1');
    expect(rules.map('www.shop.example.co.uk')).toBeNull();
    expect(rules.size).toBe(2);
  });

  it('lets the first matching MAP win', () => {
    const rules = HostResolverRules.parse('MAP a.test 10.0.0.1, MAP *.test 127.0.0.1');
    expect(rules.map('a.test')).toBe('10.0.0.1');
    expect(rules.map('b.test')).toBe('127.0.0.1');
  });

  it('lets EXCLUDE win whatever its position', () => {
    const rules = HostResolverRules.parse('MAP * 127.0.0.1, EXCLUDE localhost');
    expect(rules.map('anything.example')).toBe('127.0.0.1');
    expect(rules.map('localhost')).toBeNull();
  });

  it('matches case-insensitively and ignores one trailing dot', () => {
    const rules = HostResolverRules.parse('map *.Example.TEST 127.0.0.1');
    expect(rules.map('WWW.example.test.')).toBe('127.0.0.1');
  });

  it('supports ? wildcards and host:port patterns', () => {
    const rules = HostResolverRules.parse('MAP a?.test 127.0.0.1, MAP b.test:8443 127.0.0.2');
    expect(rules.map('a1.test')).toBe('127.0.0.1');
    expect(rules.map('a12.test')).toBeNull();
    expect(rules.map('b.test')).toBeNull();
    expect(rules.map('b.test', 8443)).toBe('127.0.0.2');
    expect(rules.map('b.test', 80)).toBeNull();
  });

  it('returns ~NOTFOUND targets as such', () => {
    const rules = HostResolverRules.parse('MAP gone.test ~NOTFOUND');
    expect(rules.map('gone.test')).toBe(NOT_FOUND_TARGET);
  });

  it('accepts bracketed IPv6 and hostname targets with ports, and returns the bare host', () => {
    const rules = HostResolverRules.parse('MAP v6.test [::1]:8080, MAP alias.test real.example:81');
    expect(rules.map('v6.test')).toBe('::1');
    expect(rules.map('alias.test')).toBe('real.example');
  });

  it('round-trips through toString in Chromium syntax', () => {
    const spec = 'MAP *.example.test 127.0.0.1, EXCLUDE keep.example.test, MAP v6.test [::1]:8080, MAP x.test ~NOTFOUND';
    const rules = HostResolverRules.parse(spec);
    expect(rules.toString()).toBe(spec);
    expect(HostResolverRules.parse(rules.toString()).list()).toEqual(rules.list());
  });

  it('treats an empty spec and stray commas as no rules', () => {
    expect(HostResolverRules.parse('').size).toBe(0);
    expect(HostResolverRules.parse(' , ,').size).toBe(0);
    expect(HostResolverRules.parse('').map('a.test')).toBeNull();
  });

  it.each([
    ['FORWARD a.test 127.0.0.1', 'MAP or EXCLUDE'],
    ['MAP a.test', 'MAP <pattern> <target>'],
    ['MAP a.test 127.0.0.1 extra', 'MAP <pattern> <target>'],
    ['EXCLUDE', 'EXCLUDE <pattern>'],
    ['MAP a.test ::1', 'brackets'],
    ['MAP a.test [::1', 'unclosed'],
    ['MAP a.test 127.0.0.1:99999', 'port'],
    ['MAP a.test bad_host!', 'neither an IP address nor a hostname'],
    ['MAP a/b.test 127.0.0.1', 'pattern'],
  ])('rejects %j with an error naming the rule', (spec, why) => {
    expect(() => HostResolverRules.parse(`MAP ok.test 127.0.0.1, ${spec}`)).toThrow(
      expect.objectContaining({ message: expect.stringContaining(`"${spec}"`) }),
    );
    expect(() => HostResolverRules.parse(spec)).toThrow(why);
  });
});
