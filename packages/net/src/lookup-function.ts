import type { LookupAddress, LookupOptions } from 'node:dns';

/** An address the guard has checked and allowed. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Same shape as `dns.lookup` (what Node's net/http/https `lookup` option and got's `dnsLookup` expect). Node calls
 * it as (hostname, options, callback); the (hostname, callback) and (hostname, family, callback) forms work too.
 */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions | number | LookupCallback,
  callback?: LookupCallback,
) => void;

/**
 * A lookup function whose only answer is what `resolve` returns, so whatever connects with it goes to exactly
 * the address that was checked. With `all: true` the answer is a one-element list: never a second, unchecked
 * address for Node's happy-eyeballs to try.
 */
export function lookupFunctionFrom(resolve: (hostname: string) => Promise<ResolvedAddress>): LookupFunction {
  return (hostname, options, callback) => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback | undefined;
    if (typeof cb !== 'function') throw new TypeError('lookup needs a callback');
    const all = typeof options === 'object' && options !== null && options.all === true;
    resolve(hostname).then(
      (r) => (all ? cb(null, [{ address: r.address, family: r.family }]) : cb(null, r.address, r.family)),
      (err: NodeJS.ErrnoException) => cb(err, all ? [] : ''),
    );
  };
}

/**
 * A lookup function pinned to one hostname and the address already checked for it: no DNS at connect time, so a
 * DNS answer that changes between check and connect (rebinding) cannot redirect the socket. Any other hostname is
 * refused rather than resolved (fail closed).
 */
export function pinnedLookup(hostname: string, target: ResolvedAddress, refuse: () => Error): LookupFunction {
  const expected = comparableHost(hostname);
  return lookupFunctionFrom(async (asked) => {
    if (comparableHost(asked) !== expected) throw refuse();
    return target;
  });
}

function comparableHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}
