import { getDomain } from 'tldts';

/**
 * The one tldts adapter. Private PSL suffixes count as public suffixes, so `a.github.io` and `b.github.io` are two
 * sites (their owners differ). A TLD missing from the list (e.g. `.test`) is treated by tldts as a one-label public
 * suffix, so `a.example.test` belongs to `example.test`.
 * Hosts here are already normalized (lower-case, punycode, no trailing dot), hence no hostname extraction and
 * no mixed-input sniffing: that halves the cost of a lookup.
 */
const OPTIONS = { allowPrivateDomains: true, extractHostname: false, mixedInputs: false } as const;

/** The registrable domain ("eTLD+1") of a normalized hostname; null for IP literals and hosts that have none (`localhost`, a bare public suffix such as `co.uk`). */
export function registrableDomain(hostname: string): string | null {
  return getDomain(hostname, OPTIONS);
}
