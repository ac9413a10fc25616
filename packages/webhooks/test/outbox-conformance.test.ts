import { randomPrefix, useKvBackends } from '@trawl/test-support/backends.ts';
import { KvWebhookOutbox } from '../src/index.ts';
import { outboxConformance } from './outbox-suite.ts';

outboxConformance(useKvBackends().map(([name, open]) => [name, () => new KvWebhookOutbox(open(), randomPrefix())]));
