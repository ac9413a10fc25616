export { HostResolverRules, NOT_FOUND_TARGET, globMatch, type HostRule } from './host-resolver-rules.ts';
export { classifyIp, embeddedIpv4, parseIp, type IpCategory } from './ip-classification.ts';
export { lookupFunctionFrom, pinnedLookup, type LookupFunction, type ResolvedAddress } from './lookup-function.ts';
export {
  BlockedTargetError,
  HostResolutionError,
  SsrfGuard,
  type BlockedCategory,
  type GuardDecision,
  type LookupAll,
  type SsrfGuardOptions,
} from './ssrf-guard.ts';
