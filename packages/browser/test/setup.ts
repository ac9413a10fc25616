import { HostResolverRules, SsrfGuard, type LookupAll } from '@trawl/net';

/** Tests never use real DNS: a name the rules do not map fails like getaddrinfo would. */
const noDns: LookupAll = async () => {
  throw Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' });
};

/** Every *.test name is the local fixture site; *.canary.internal names point at the canary on 127.0.0.2. */
export const TEST_RULES = 'MAP *.test 127.0.0.1, MAP *.canary.internal 127.0.0.2';

export function testGuard(allowPrivate: string[] = ['127.0.0.1/32']): SsrfGuard {
  return new SsrfGuard({ allowPrivate, rules: HostResolverRules.parse(TEST_RULES), lookup: noDns });
}

export const within = (ms: number) => Date.now() + ms;

/** Every string value anywhere in a JSON-like value. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}
