import { randomPrefix, useKvBackends } from '@trawl/test-support/backends.ts';
import { KvStore } from '../src/index.ts';
import { quotaConformance } from './quota-suite.ts';

quotaConformance(useKvBackends().map(([name, open]) => [name, () => new KvStore(open(), randomPrefix())]));
