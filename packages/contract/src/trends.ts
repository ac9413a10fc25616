import { z } from 'zod';

/** The complete search-trends query grain (spec 2.8). Finer value rules arrive with the trends service. */
export const TrendsGrain = z
  .strictObject({
    keyword: z.string().min(1).max(100),
    geo: z.string(),
    timeframe: z.string().min(1),
    category: z.int().nonnegative(),
    property: z.enum(['', 'images', 'news', 'youtube', 'froogle']),
    hl: z.string().min(1),
    tz: z.int().min(-1440).max(1440),
  })
  .meta({ id: 'TrendsRelatedQueriesRequest' });
export type TrendsGrain = z.infer<typeof TrendsGrain>;
