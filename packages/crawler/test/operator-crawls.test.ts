import { describe } from 'vitest';
import { KvCrawlStore, KvShardDirectory } from '@trawl/frontier';
import { KvStore } from '@trawl/store';
import { operatorCrawlCases } from './operator-crawls-suite.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

describe('operator crawls: memory', () => {
  operatorCrawlCases(() => {
    // One Kv for the three, as a process's embedded backends share it.
    const kv = memoryKv();
    return { store: new KvStore(kv), crawls: new KvCrawlStore(kv), directory: new KvShardDirectory(kv) };
  });
});
