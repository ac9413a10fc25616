import { describe, expect, it } from 'vitest';
import { BlockedTargetError, HostResolutionError, HostResolverRules, SsrfGuard, type LookupAll } from '../src/index.ts';

/** A lookup that must not be reached: IP literals are judged without DNS. */
const noDns: LookupAll = async () => {
  throw new Error('unexpected DNS lookup');
};

/** Fake DNS: fixed answers per name; unknown names fail like getaddrinfo. Never touches the network. */
function fakeDns(table: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (name: string) => {
    calls.push(name);
    const answers = table[name];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  };
  return Object.assign(fn, { calls });
}

async function refusal(guard: SsrfGuard, url: string): Promise<BlockedTargetError> {
  const err = await guard.resolve(new URL(url).hostname).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `${url} must be refused`).toBeInstanceOf(BlockedTargetError);
  return err as BlockedTargetError;
}

const LITERAL_VECTORS: [string, string][] = [
  ['http://127.0.0.1/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://017700000001/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://0x7f.0.0.1/', 'loopback'],
  ['http://127.0.0.1./', 'loopback'],
  ['http://%31%32%37.0.0.1/', 'loopback'],
  ['http://[::1]/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[2002:7f00:1::]/', 'loopback'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://10.0.0.1/', 'private'],
  ['http://10.255.255.255/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.254/', 'private'],
  ['http://192.168.0.1/', 'private'],
  ['http://192.168.255.255/', 'private'],
  ['http://100.64.0.1/', 'private'],
  ['http://100.127.255.254/', 'private'],
  ['http://[::ffff:10.0.0.1]/', 'private'],
  ['http://[64:ff9b::a00:1]/', 'private'],
  ['http://169.254.169.254/', 'metadata'],
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://100.100.100.200/', 'metadata'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://169.254.0.1/', 'link_local'],
  ['http://[fe80::1]/', 'link_local'],
  ['http://[fc00::1]/', 'unique_local'],
  ['http://[fd12::1]/', 'unique_local'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://198.18.0.1/', 'reserved'],
];

describe('SsrfGuard decision table', () => {
  const guard = new SsrfGuard({ allowPrivate: [], lookup: noDns });

  it.each(LITERAL_VECTORS)('refuses %s as %s without DNS', async (url, category) => {
    const err = await refusal(guard, url);
    expect(err.code).toBe('blocked_target');
    expect(err.category).toBe(category);
  });

  it('refuses a hostname that the host resolver rules map to 10.0.0.1', async () => {
    const rules = HostResolverRules.parse('MAP *.corp.test 10.0.0.1');
    const g = new SsrfGuard({ allowPrivate: [], rules, lookup: noDns });
    expect((await refusal(g, 'http://intranet.corp.test/')).category).toBe('private');
  });

  it.each([
    ['private answer', ['10.1.2.3'], 'private'],
    ['loopback answer', ['127.0.0.1'], 'loopback'],
    ['mapped loopback answer', ['::ffff:127.0.0.1'], 'loopback'],
    ['metadata answer', ['169.254.169.254'], 'metadata'],
    ['mixed public and private answers', ['93.184.216.34', '192.168.1.10'], 'private'],
    ['mixed IPv6 public and loopback answers', ['2606:4700::1111', '::1'], 'loopback'],
  ])('refuses a hostname whose DNS gives a %s', async (_label, answers, category) => {
    const dns = fakeDns({ 'sneaky.example': answers });
    const g = new SsrfGuard({ allowPrivate: [], lookup: dns });
    expect((await refusal(g, 'http://sneaky.example/')).category).toBe(category);
    expect(dns.calls).toEqual(['sneaky.example']);
  });

  it('refuses a rule target hostname whose DNS answer is private', async () => {
    const dns = fakeDns({ 'backend.internal': ['10.9.9.9'] });
    const g = new SsrfGuard({ allowPrivate: [], rules: HostResolverRules.parse('MAP api.test backend.internal'), lookup: dns });
    await refusal(g, 'http://api.test/');
    expect(dns.calls).toEqual(['backend.internal']);
  });

  it('keeps hosts and addresses out of the refusal message', async () => {
    const dns = fakeDns({ 'secret-host.example': ['10.20.30.40'] });
    const g = new SsrfGuard({ allowPrivate: [], lookup: dns });
    const err = await refusal(g, 'http://secret-host.example/');
    expect(err.message).not.toMatch(/secret-host|10\.20\.30\.40/);
  });

  it('allows public addresses by decision alone', () => {
    expect(guard.decide('8.8.8.8')).toEqual({ allowed: true, category: 'public' });
    expect(guard.decide('2606:4700::1111')).toEqual({ allowed: true, category: 'public' });
    expect(guard.decide('172.32.0.1')).toEqual({ allowed: true, category: 'public' });
  });

  it('resolves public literals and names to the checked address, first answer first', async () => {
    expect(await guard.resolve(new URL('http://8.8.8.8/').hostname)).toEqual({ address: '8.8.8.8', family: 4 });
    expect(await guard.resolve(new URL('http://[2606:4700::1111]/').hostname)).toEqual({ address: '2606:4700::1111', family: 6 });
    const g = new SsrfGuard({ allowPrivate: [], lookup: fakeDns({ 'ok.example': ['93.184.216.34', '2606:2800::1'] }) });
    expect(await g.resolve('ok.example')).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('reports DNS failures and ~NOTFOUND rules as resolution errors without the host', async () => {
    const g = new SsrfGuard({ allowPrivate: [], lookup: fakeDns({}), rules: HostResolverRules.parse('MAP gone.test ~NOTFOUND') });
    const dnsErr = await g.resolve('missing.example').catch((e: unknown) => e);
    expect(dnsErr).toBeInstanceOf(HostResolutionError);
    expect((dnsErr as HostResolutionError).code).toBe('ENOTFOUND');
    expect((dnsErr as Error).message).not.toContain('missing.example');
    await expect(g.resolve('gone.test')).rejects.toBeInstanceOf(HostResolutionError);
  });

  it('refuses strings that are not hosts', async () => {
    for (const bad of ['', 'a b', 'user@host', 'host/path', '1.2.3.4.5', '[not-ipv6]']) {
      await expect(guard.resolve(bad)).rejects.toMatchObject({ code: 'blocked_target', category: 'invalid_host' });
    }
  });
});

describe('TRAWL_ALLOW_PRIVATE', () => {
  it('lets addresses inside an allowed CIDR through, and nothing else', () => {
    const g = new SsrfGuard({ allowPrivate: ['10.0.0.0/8', 'fd12::/16'], lookup: noDns });
    expect(g.decide('10.1.2.3')).toEqual({ allowed: true, category: 'private' });
    expect(g.decide('::ffff:10.1.2.3').allowed).toBe(true);
    expect(g.decide('fd12::1')).toEqual({ allowed: true, category: 'unique_local' });
    expect(g.decide('192.168.1.1').allowed).toBe(false);
    expect(g.decide('127.0.0.1').allowed).toBe(false);
    expect(g.decide('fd13::1').allowed).toBe(false);
  });

  it('accepts a bare address as a single host', async () => {
    const g = new SsrfGuard({ allowPrivate: [' 127.0.0.2 '], lookup: noDns });
    expect(await g.resolve('127.0.0.2')).toEqual({ address: '127.0.0.2', family: 4 });
    await expect(g.resolve('127.0.0.3')).rejects.toBeInstanceOf(BlockedTargetError);
  });

  it('opens a metadata address only when it is listed exactly', () => {
    expect(new SsrfGuard({ allowPrivate: ['169.254.0.0/16'] }).decide('169.254.169.254').allowed).toBe(false);
    expect(new SsrfGuard({ allowPrivate: ['169.254.0.0/16'] }).decide('169.254.1.1').allowed).toBe(true);
    expect(new SsrfGuard({ allowPrivate: ['100.64.0.0/10'] }).decide('100.100.100.200').allowed).toBe(false);
    expect(new SsrfGuard({ allowPrivate: ['0.0.0.0/0'] }).decide('169.254.169.254').allowed).toBe(false);
    expect(new SsrfGuard({ allowPrivate: ['169.254.169.254/32'] }).decide('169.254.169.254').allowed).toBe(true);
  });

  it.each(['10/8', 'abc', '10.0.0.0/33', '::1/129', '10.0.0.0/', '2130706433/32', '10.0.0.0/8x'])(
    'rejects the entry %j at construction, naming it',
    (entry) => {
      expect(() => new SsrfGuard({ allowPrivate: ['127.0.0.1/32', entry] })).toThrow(`"${entry}"`);
    },
  );
});
