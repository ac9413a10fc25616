import { describe } from 'vitest';
import { KvCrawlStore } from '@trawl/frontier';
import { KvTrendsJobStore } from '@trawl/trends';
import { retentionViewCases } from './retention-view-suite.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

describe('retention upcoming: memory', () => {
  retentionViewCases((retentionMs) => ({ crawls: new KvCrawlStore(memoryKv()), trends: new KvTrendsJobStore(memoryKv(), '', { retentionMs }) }));
});
