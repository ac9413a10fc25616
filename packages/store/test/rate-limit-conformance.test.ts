import { rateLimitConformance } from './rate-limit-suite.ts';
import { useKvStores } from './store-backends.ts';

rateLimitConformance(useKvStores());
