import { randomPrefix, useKvBackends } from '@trawl/test-support/backends.ts';
import { KvTrendsJobStore } from '../src/index.ts';
import { operatorJobCases } from './operator-jobs-suite.ts';

operatorJobCases(useKvBackends().map(([name, open]) => [name, () => new KvTrendsJobStore(open(), randomPrefix())]));
