import { afterAll, beforeAll } from 'vitest';
import { HostResolverRules, SsrfGuard, type LookupAll } from '@trawl/net';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { createLightEngine, type LightEngine } from '../src/index.ts';

/** Tests never use real DNS: any name not mapped by the rules fails like getaddrinfo would. */
export const noDns: LookupAll = async () => {
  throw Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' });
};

/** The fixture hosts: every *.test and *.example.co.uk name is the fixture site on 127.0.0.1. */
export const FIXTURE_RULES = 'MAP *.test 127.0.0.1, MAP *.example.co.uk 127.0.0.1';

export function testGuard(opts: { allowPrivate?: string[]; rules?: string; lookup?: LookupAll } = {}): SsrfGuard {
  return new SsrfGuard({
    allowPrivate: opts.allowPrivate ?? ['127.0.0.1/32'],
    rules: HostResolverRules.parse(opts.rules ?? FIXTURE_RULES),
    lookup: opts.lookup ?? noDns,
  });
}

/** A deadline `ms` from now. */
export const within = (ms: number) => Date.now() + ms;

/** The shared fixture site and a light engine with the test guard, for the tests of one file. */
export function useFixtureEngine(): { readonly site: FixtureSite; readonly engine: LightEngine } {
  let site: FixtureSite | undefined;
  let engine: LightEngine | undefined;
  beforeAll(async () => {
    site = await startFixtureSite();
    engine = createLightEngine({ guard: testGuard() });
  });
  afterAll(async () => {
    await engine?.close();
    await site?.close();
  });
  return {
    get site() {
      if (!site) throw new Error('useFixtureEngine: used outside a test');
      return site;
    },
    get engine() {
      if (!engine) throw new Error('useFixtureEngine: used outside a test');
      return engine;
    },
  };
}
