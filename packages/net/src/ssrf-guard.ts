import { promises as dns } from 'node:dns';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { HostResolverRules, NOT_FOUND_TARGET } from './host-resolver-rules.ts';
import { classifyParsedIp, embeddedIpv4, parseIp, type IpCategory, type ParsedIp } from './ip-classification.ts';
import { lookupFunctionFrom, pinnedLookup, type LookupFunction, type ResolvedAddress } from './lookup-function.ts';

export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface SsrfGuardOptions {
  /** CIDRs (or single addresses) from TRAWL_ALLOW_PRIVATE: the only way to reach a non-public address. */
  allowPrivate: string[];
  rules?: HostResolverRules;
  /** DNS, all answers. Default: dns.promises.lookup(hostname, { all: true }). */
  lookup?: LookupAll;
}

export interface GuardDecision {
  allowed: boolean;
  category: IpCategory;
}

export type BlockedCategory = IpCategory | 'invalid_host' | 'unchecked_host';

/** The target is refused. Carries no host or address, so it is safe to log and to show. */
export class BlockedTargetError extends Error {
  readonly code = 'blocked_target';
  constructor(readonly category: BlockedCategory) {
    super(`target refused by the SSRF guard (${category})`);
    this.name = 'BlockedTargetError';
  }
}

/** DNS gave no usable answer (a network failure, not a refusal). The message names only the error code. */
export class HostResolutionError extends Error {
  constructor(readonly code: string) {
    super(`host could not be resolved (${code})`);
    this.name = 'HostResolutionError';
  }
}

const defaultLookup: LookupAll = async (hostname) =>
  (await dns.lookup(hostname, { all: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * Decides whether an address may be contacted, and resolves hostnames so that the caller connects to the very
 * address that was judged. Everything but public unicast is refused unless TRAWL_ALLOW_PRIVATE covers it;
 * cloud metadata addresses pass only when listed exactly (a /32 or /128 of their own), so allowing a whole
 * range such as 100.64.0.0/10 or 169.254.0.0/16 never opens a metadata endpoint by accident.
 */
export class SsrfGuard {
  private readonly allowList: readonly (readonly [ParsedIp, number])[];
  readonly rules: HostResolverRules;
  private readonly lookupAll: LookupAll;

  constructor(opts: SsrfGuardOptions) {
    this.allowList = opts.allowPrivate.map((s) => s.trim()).filter((s) => s !== '').map(parseAllowEntry);
    this.rules = opts.rules ?? HostResolverRules.empty;
    this.lookupAll = opts.lookup ?? defaultLookup;
  }

  /** Pure verdict on one IP literal (any inet_aton or IPv6 spelling). Throws a TypeError for a non-IP. */
  decide(ip: string): GuardDecision {
    return this.verdict(parseIp(ip));
  }

  /**
   * One checked address for a host: IP literals are judged as they are; names go through the host resolver
   * rules, else one DNS lookup. If any DNS answer is refused the host is refused, so a name that answers with
   * a public and a private address cannot steer us to the private one. Throws BlockedTargetError or
   * HostResolutionError. `port` only matters for rules whose pattern names one.
   */
  async resolve(hostname: string, port?: number): Promise<ResolvedAddress> {
    const host = canonicalHost(hostname);
    if (host.ip !== null) return this.admit(host.ip);
    const mapped = this.rules.map(host.name, port);
    if (mapped === NOT_FOUND_TARGET) throw new HostResolutionError('ENOTFOUND');
    if (mapped !== null) return isIP(mapped) ? this.admit(mapped) : this.lookupAndAdmit(mapped);
    return this.lookupAndAdmit(host.name);
  }

  /** A `dns.lookup`-shaped function that runs resolve(): for Node's http(s) `lookup` or got's `dnsLookup`. */
  lookupFn(): LookupFunction {
    return lookupFunctionFrom((hostname) => this.resolve(hostname));
  }

  /** A lookup function that answers `hostname` with an address resolve() already returned, without new DNS. */
  pinnedLookupFn(hostname: string, target: ResolvedAddress): LookupFunction {
    return pinnedLookup(hostname, target, () => new BlockedTargetError('unchecked_host'));
  }

  private verdict(parsed: ParsedIp): GuardDecision {
    const category = classifyParsedIp(parsed);
    if (category === 'public') return { allowed: true, category };
    return { allowed: this.allowed(parsed, category === 'metadata'), category };
  }

  private admit(ip: string): ResolvedAddress {
    const parsed = parseIp(ip);
    const verdict = this.verdict(parsed);
    if (!verdict.allowed) throw new BlockedTargetError(verdict.category);
    return { address: parsed.toString(), family: parsed.kind() === 'ipv6' ? 6 : 4 };
  }

  private async lookupAndAdmit(name: string): Promise<ResolvedAddress> {
    let answers: { address: string; family: 4 | 6 }[];
    try {
      answers = await this.lookupAll(name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new HostResolutionError(typeof code === 'string' ? code : 'ENOTFOUND');
    }
    if (answers.length === 0) throw new HostResolutionError('ENOTFOUND');
    const admitted = answers.map((a) => this.admit(a.address));
    return admitted[0];
  }

  private allowed(addr: ParsedIp, exactOnly: boolean): boolean {
    // ::ffff:10.0.0.1 and 10.0.0.1 reach the same host, so an entry for either form covers both.
    const inner = embeddedIpv4(addr);
    const candidates = inner ? [addr, inner] : [addr];
    for (const [net, bits] of this.allowList) {
      if (exactOnly && bits !== (net.kind() === 'ipv4' ? 32 : 128)) continue;
      for (const c of candidates) {
        if (c.kind() === net.kind() && c.match(net, bits)) return true;
      }
    }
    return false;
  }
}

function parseAllowEntry(entry: string): readonly [ParsedIp, number] {
  const fail = (): never => {
    throw new Error(`invalid TRAWL_ALLOW_PRIVATE entry "${entry}": expected a CIDR such as 10.0.0.0/8 or fd00::/8`);
  };
  const slash = entry.indexOf('/');
  const addrText = slash < 0 ? entry : entry.slice(0, slash);
  const bitsText = slash < 0 ? null : entry.slice(slash + 1);
  // Only plain dotted-quad IPv4 here: "10/8" must not silently mean 0.0.0.10/8.
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(addrText);
  if (!v4 && !isIPv6(addrText)) fail();
  const max = v4 ? 32 : 128;
  const bits = bitsText === null ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) fail();
  return [ipaddr.parse(addrText), bits] as const;
}

/**
 * Splits a host into an IP literal or a DNS name, using the WHATWG host parser so that every spelling a URL
 * accepts (2130706433, 0x7f.1, 017700000001, percent-escapes, IDN) is judged the way a URL would resolve it.
 */
function canonicalHost(input: string): { ip: string; name: '' } | { ip: null; name: string } {
  const text = input.trim();
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv6(unbracketed)) return { ip: unbracketed, name: '' };
  if (unbracketed !== text || text === '' || /[\s/\\?#@:]/.test(text)) throw new BlockedTargetError('invalid_host');
  let hostname: string;
  try {
    hostname = new URL(`http://${text}/`).hostname;
  } catch {
    throw new BlockedTargetError('invalid_host');
  }
  if (isIPv4(hostname)) return { ip: hostname, name: '' };
  return { ip: null, name: hostname };
}
