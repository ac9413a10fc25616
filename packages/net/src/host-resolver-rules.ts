import { isIPv4, isIPv6 } from 'node:net';

/**
 * Host overrides in Chromium's `--host-resolver-rules` syntax, so one setting (TRAWL_HOST_RESOLVER_RULES) drives
 * both the light engine and the browser. Supported, as Chromium does:
 *   MAP <pattern> <target>[:port]   first matching MAP wins; target `~NOTFOUND` makes resolution fail
 *   EXCLUDE <pattern>               a host matching any EXCLUDE is never mapped, whatever the rule order
 * Patterns are globs (`*` any run of characters, `?` one character), matched against the hostname, then against
 * `host:port` when a port is known. So `*.example.test` matches subdomains only, not `example.test` itself
 * (same as Chromium); write `MAP example.test ...` too to cover the apex.
 * Differences from Chromium, on purpose: matching is case-insensitive and ignores one trailing dot (hostnames are
 * case-insensitive; Chromium only ever sees canonical lowercase hosts), and the target port is kept in
 * toString() for Chromium but not used by us (we connect to the request's own port).
 */
export type HostRule =
  | { kind: 'map'; pattern: string; target: string; port: number | null }
  | { kind: 'exclude'; pattern: string };

/** Returned by map() for a `MAP <pattern> ~NOTFOUND` rule: the host must not resolve. */
export const NOT_FOUND_TARGET = '~NOTFOUND';

const PATTERN_CHARS = /^[a-z0-9.*?_:\-]+$/;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_\-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_\-]{0,61}[a-z0-9_])?)*\.?$/;

export class HostResolverRules {
  private constructor(private readonly rules: readonly HostRule[]) {}

  static readonly empty = new HostResolverRules([]);

  /** Parses a comma-separated rule list; throws an Error naming the first bad rule. Empty input = no rules. */
  static parse(spec: string): HostResolverRules {
    const rules: HostRule[] = [];
    for (const raw of spec.split(',')) {
      const text = raw.trim();
      if (text === '') continue;
      rules.push(parseRule(text));
    }
    return new HostResolverRules(rules);
  }

  get size(): number {
    return this.rules.length;
  }

  list(): readonly HostRule[] {
    return this.rules;
  }

  /**
   * The target the hostname is mapped to (an IP literal without brackets, a hostname, or `~NOTFOUND`),
   * or null when no rule applies.
   */
  map(hostname: string, port?: number): string | null {
    if (this.rules.length === 0) return null;
    const host = normalizeHost(hostname);
    const hostPort = port === undefined ? null : `${host}:${port}`;
    const matches = (pattern: string) => globMatch(pattern, host) || (hostPort !== null && globMatch(pattern, hostPort));
    for (const rule of this.rules) {
      if (rule.kind === 'exclude' && matches(rule.pattern)) return null;
    }
    for (const rule of this.rules) {
      if (rule.kind === 'map' && matches(rule.pattern)) return rule.target;
    }
    return null;
  }

  /** The rules in canonical Chromium syntax (for `--host-resolver-rules`). */
  toString(): string {
    return this.rules
      .map((r) => {
        if (r.kind === 'exclude') return `EXCLUDE ${r.pattern}`;
        const target = isIPv6(r.target) ? `[${r.target}]` : r.target;
        return `MAP ${r.pattern} ${target}${r.port === null ? '' : `:${r.port}`}`;
      })
      .join(', ');
  }
}

function parseRule(text: string): HostRule {
  const parts = text.split(/\s+/);
  const keyword = parts[0].toUpperCase();
  const fail = (why: string): never => {
    throw new Error(`invalid host resolver rule "${text}": ${why}`);
  };
  if (keyword === 'EXCLUDE') {
    if (parts.length !== 2) fail('expected "EXCLUDE <pattern>"');
    return { kind: 'exclude', pattern: parsePattern(parts[1], fail) };
  }
  if (keyword === 'MAP') {
    if (parts.length !== 3) fail('expected "MAP <pattern> <target>"');
    const pattern = parsePattern(parts[1], fail);
    const { target, port } = parseTarget(parts[2], fail);
    return { kind: 'map', pattern, target, port };
  }
  return fail('a rule starts with MAP or EXCLUDE');
}

function parsePattern(text: string, fail: (why: string) => never): string {
  const pattern = text.toLowerCase();
  if (!PATTERN_CHARS.test(pattern)) fail('the pattern may hold only hostname characters, "*" and "?"');
  return pattern;
}

function parseTarget(text: string, fail: (why: string) => never): { target: string; port: number | null } {
  if (text === NOT_FOUND_TARGET) return { target: NOT_FOUND_TARGET, port: null };
  let host = text.toLowerCase();
  let portText: string | null = null;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) fail('unclosed "[" in the target');
    const rest = host.slice(close + 1);
    host = host.slice(1, close);
    if (!isIPv6(host)) fail('the bracketed target is not an IPv6 address');
    if (rest !== '') {
      if (!rest.startsWith(':')) fail('unexpected text after "]" in the target');
      portText = rest.slice(1);
    }
  } else {
    if (isIPv6(host)) fail('write an IPv6 target in brackets, e.g. [::1]');
    const colon = host.lastIndexOf(':');
    if (colon >= 0) {
      portText = host.slice(colon + 1);
      host = host.slice(0, colon);
    }
    if (!isIPv4(host) && !HOSTNAME.test(host)) fail('the target is neither an IP address nor a hostname');
  }
  let port: number | null = null;
  if (portText !== null) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 1 && port <= 65535)) fail('the target port must be 1-65535');
  }
  return { target: host, port };
}

function normalizeHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

/** Glob match with `*` and `?`, linear backtracking (no regex, so no pathological patterns). */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
