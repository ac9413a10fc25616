import { expect, it } from 'vitest';
import { useKvBackends } from '@trawl/test-support/backends.ts';
import { KvCrawlStore, KvShardDirectory, FrontierStatsInput } from '../src/index.ts';
import { clusterViewCases } from './cluster-views-suite.ts';

clusterViewCases(
  useKvBackends().map(([name, open]) => [
    name,
    () => {
      const kv = open();
      return { crawls: new KvCrawlStore(kv), directory: new KvShardDirectory(kv) };
    },
  ]),
);

it('frontier stats input: a limit out of range or an unknown field is rejected', () => {
  expect(FrontierStatsInput.safeParse({ limit: 0 }).success).toBe(false);
  expect(FrontierStatsInput.safeParse({ limit: 1001 }).success).toBe(false);
  expect(FrontierStatsInput.safeParse({ hosts: 1 }).success).toBe(false);
  expect(FrontierStatsInput.parse(undefined)).toEqual({ limit: 100 });
});
