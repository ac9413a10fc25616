import ipaddr from 'ipaddr.js';

/** Where an address points. Only `public` is reachable without an explicit TRAWL_ALLOW_PRIVATE entry. */
export type IpCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'unique_local'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved';

export type ParsedIp = ipaddr.IPv4 | ipaddr.IPv6;

type Table<T extends ParsedIp> = ReadonlyArray<readonly [T, number, IpCategory]>;

function table<T extends ParsedIp>(parse: (s: string) => [T, number], rows: [string, IpCategory][]): Table<T> {
  return rows.map(([cidr, category]) => {
    const [net, bits] = parse(cidr);
    return [net, bits, category] as const;
  });
}

// First match wins, so the narrow entries (metadata hosts) come before the ranges that contain them.
const V4_TABLE = table((s) => ipaddr.IPv4.parseCIDR(s), [
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack, DigitalOcean...
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud
  ['168.63.129.16/32', 'metadata'], // Azure wire server: public-looking but platform-internal
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'private'], // carrier-grade NAT, often the cluster network
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments (incl. Oracle's 192.0.0.192 metadata)
  ['192.0.2.0/24', 'reserved'], // documentation
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // documentation
  ['203.0.113.0/24', 'reserved'], // documentation
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
]);

const V6_TABLE = table((s) => ipaddr.IPv6.parseCIDR(s), [
  ['fd00:ec2::254/128', 'metadata'], // AWS IPv6 instance metadata
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'reserved'], // local-use NAT64 (RFC 8215): the IPv4 side is site-specific
  ['100::/64', 'reserved'], // discard-only
  ['2001::/32', 'reserved'], // Teredo: the real IPv4 endpoint is obfuscated, so we cannot judge it
  ['2001:2::/48', 'reserved'], // benchmarking
  ['2001:10::/28', 'reserved'], // ORCHID
  ['2001:20::/28', 'reserved'], // ORCHIDv2
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation (RFC 9637)
  ['fc00::/7', 'unique_local'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'reserved'], // deprecated site-local: in practice private
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Parses an IP literal: dotted IPv4 in any inet_aton spelling (127.1, 0x7f.0.0.1, 2130706433), IPv6 with or
 * without brackets or a zone id. Throws a TypeError for anything else.
 */
export function parseIp(ip: string): ParsedIp {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0 && text.includes(':')) text = text.slice(0, zone);
  if (!ipaddr.isValid(text)) throw new TypeError('not an IP address');
  return ipaddr.parse(text);
}

export function classifyIp(ip: string): IpCategory {
  return classifyParsedIp(parseIp(ip));
}

export function classifyParsedIp(addr: ParsedIp): IpCategory {
  if (addr.kind() === 'ipv4') return lookupTable(addr as ipaddr.IPv4, V4_TABLE) ?? 'public';
  const v6 = addr as ipaddr.IPv6;
  const first = lookupTable(v6, V6_TABLE.slice(0, 3));
  if (first) return first;
  // Transition formats that carry an IPv4 destination are judged by that IPv4: ::ffff:127.0.0.1 is loopback.
  const inner = embeddedIpv4(v6);
  if (inner) return classifyParsedIp(inner);
  const category = lookupTable(v6, V6_TABLE);
  if (category) return category;
  // Outside 2000::/3 nothing is assigned for global unicast.
  return v6.match(GLOBAL_UNICAST_V6) ? 'public' : 'reserved';
}

/**
 * The IPv4 address an IPv6 address stands for, for the formats that route to it: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
export function embeddedIpv4(addr: ParsedIp): ipaddr.IPv4 | null {
  if (addr.kind() !== 'ipv6') return null;
  const p = (addr as ipaddr.IPv6).parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (zero(0, 5) && p[5] === 0xffff) return v4(p[6], p[7]);
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(p[6], p[7]);
  if (zero(0, 6)) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return v4(p[6], p[7]);
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  return null;
}

function lookupTable<T extends ParsedIp>(addr: T, rows: Table<T>): IpCategory | null {
  for (const [net, bits, category] of rows) {
    if (addr.match(net, bits)) return category;
  }
  return null;
}
