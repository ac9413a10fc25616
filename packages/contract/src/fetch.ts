import { z } from 'zod';
import { HttpUrl } from './common.ts';

export const FetchRequest = z.strictObject({ url: HttpUrl }).meta({ id: 'FetchRequest' });
export type FetchRequest = z.infer<typeof FetchRequest>;
