import { MemoryRateLimiter } from '../src/index.ts';
import { rateLimiterConformance } from './rate-limiter-suite.ts';

rateLimiterConformance([['in process', (s) => new MemoryRateLimiter(s)]]);
