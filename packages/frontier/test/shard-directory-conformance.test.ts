import { useKvBackends } from '@trawl/test-support/backends.ts';
import { KvShardDirectory } from '../src/index.ts';
import { shardDirectoryConformance, TTL } from './shard-directory-suite.ts';

shardDirectoryConformance(
  useKvBackends().map(([name, open]) => [
    name,
    () => {
      // Two handles on one Kv, as two modules of the one process owning the data directory would hold them.
      const kv = open();
      return [new KvShardDirectory(kv, '', TTL), new KvShardDirectory(kv, '', TTL)];
    },
  ]),
);
