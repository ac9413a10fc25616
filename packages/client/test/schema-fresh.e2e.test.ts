import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentSchemaSource, SCHEMA_FILE } from '../scripts/gen-client.ts';

describe('generated client schema', () => {
  it('is what openapi-typescript makes of the gateway’s current public OpenAPI document (else: npm run gen:client)', async () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const current = await currentSchemaSource();
    expect(current.length).toBeGreaterThan(10_000);
    expect(committed === current, 'packages/client/src/schema.ts is stale: run npm run gen:client').toBe(true);
  });
});
