import { randomPrefix, useKvBackends } from '@trawl/test-support/backends.ts';
import { KvTrendsJobStore } from '../src/index.ts';
import { jobStoreConformance } from './job-store-suite.ts';

jobStoreConformance(useKvBackends().map(([name, open]) => [name, (opts) => new KvTrendsJobStore(open(), randomPrefix(), opts)]));
