import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkingSerializer } from '../src/response-check.ts';

describe('response checking (TRAWL_CHECK_RESPONSES, on in every test gateway)', () => {
  const schema = z.strictObject({ run: z.strictObject({ id: z.string() }) });
  const serialize = checkingSerializer({ schema, url: '/v1/runs/:run_id', method: 'GET', httpStatus: '200' } as never);

  it('sends a body that matches its documented schema as JSON', () => {
    expect(serialize({ run: { id: 'run_1' } })).toBe('{"run":{"id":"run_1"}}');
  });

  it('refuses a body that breaks it, naming the route, the status and the field', () => {
    expect(() => serialize({ run: { id: 7 } })).toThrow(/200 of GET \/v1\/runs\/:run_id .*run\.id/);
    expect(() => serialize({ run: { id: 'x', extra: true } })).toThrow(/breaks its documented schema/);
  });
});
