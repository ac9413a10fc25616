import { createHash } from 'node:crypto';
import type { TrendsGrain } from '@trawl/contract';

/** Identity of a grain for result reuse: the seven fields in a fixed order, hashed (key order in the body is irrelevant). */
export function grainKey(g: TrendsGrain): string {
  const canonical = JSON.stringify([g.keyword, g.geo, g.timeframe, g.category, g.property, g.hl, g.tz]);
  return createHash('sha256').update(canonical).digest('base64url');
}
