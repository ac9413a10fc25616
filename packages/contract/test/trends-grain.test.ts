import { describe, expect, it } from 'vitest';
import { TrendsGrain } from '../src/index.ts';

/** The grain of the recorded fixtures (shared/fixtures/google-trends/README.md). */
const VALID = { keyword: 'pizza', geo: '', timeframe: '2021-01-01 2021-12-31', category: 0, property: '', hl: 'en-US', tz: 360 };

function problemOf(patch: Record<string, unknown>) {
  const r = TrendsGrain.safeParse({ ...VALID, ...patch });
  return r.success ? null : { path: r.error.issues[0].path.join('.'), message: r.error.issues[0].message, code: r.error.issues[0].code };
}

describe('TrendsGrain', () => {
  it('accepts the fixtures grain and every documented value form', () => {
    expect(problemOf({})).toBeNull();
    const ok: Record<string, unknown>[] = [
      { keyword: 'k'.repeat(100) },
      { keyword: '🍕'.repeat(100) },
      { geo: 'US' },
      { geo: 'US-CA' },
      { geo: 'GB-ENG' },
      ...['now 1-H', 'now 4-H', 'now 1-d', 'now 7-d', 'today 1-m', 'today 3-m', 'today 12-m', 'today 5-y', 'all'].map((timeframe) => ({ timeframe })),
      { timeframe: '2004-01-01 2004-01-01' },
      { timeframe: '2024-02-29 2024-03-31' },
      { timeframe: '2023-03-01T00 2023-03-08T00' },
      { category: 1397 },
      { category: 71 },
      ...['images', 'news', 'youtube', 'froogle'].map((property) => ({ property })),
      { hl: 'en' },
      { hl: 'pt-BR' },
      { hl: 'zh-Hant-TW' },
      { tz: -1440 },
      { tz: 1440 },
      { tz: 0 },
    ];
    for (const patch of ok) expect(problemOf(patch), JSON.stringify(patch)).toBeNull();
  });

  it('requires all seven fields', () => {
    for (const field of Object.keys(VALID)) {
      const body: Record<string, unknown> = { ...VALID };
      delete body[field];
      expect(TrendsGrain.safeParse(body).error?.issues[0].path, field).toEqual([field]);
    }
  });

  it('rejects unknown fields', () => {
    const r = TrendsGrain.safeParse({ ...VALID, keywords: ['pizza'] });
    expect(r.error?.issues[0].code).toBe('unrecognized_keys');
  });

  // One case per rule; each names its field.
  const rules: [string, Record<string, unknown>, string, RegExp][] = [
    ['keyword empty', { keyword: '' }, 'keyword', /1 to 100 characters/],
    ['keyword over 100 characters', { keyword: 'k'.repeat(101) }, 'keyword', /1 to 100 characters/],
    ['keyword blank', { keyword: '   ' }, 'keyword', /blank/],
    ['keyword with control characters', { keyword: 'piz\u0000za' }, 'keyword', /control/],
    ['keyword not a string', { keyword: 42 }, 'keyword', /string/],
    ['geo lower case', { geo: 'us' }, 'geo', /country code/],
    ['geo three letters', { geo: 'USA' }, 'geo', /country code/],
    ['geo malformed subdivision', { geo: 'US-CALIF' }, 'geo', /subdivision/],
    ['timeframe outside the grammar', { timeframe: 'today 2-m' }, 'timeframe', /must be one of/],
    ['timeframe with an impossible date', { timeframe: '2021-02-30 2021-03-01' }, 'timeframe', /does not exist/],
    ['timeframe before 2004-01-01', { timeframe: '2003-12-31 2021-01-01' }, 'timeframe', /2004-01-01/],
    ['timeframe ending before it starts', { timeframe: '2021-12-31 2021-01-01' }, 'timeframe', /end before/],
    ['hourly timeframe over 7 days', { timeframe: '2023-03-01T00 2023-03-08T01' }, 'timeframe', /7 days/],
    ['hourly timeframe with hour 24', { timeframe: '2023-03-01T00 2023-03-01T24' }, 'timeframe', /does not exist/],
    ['hourly timeframe before 2004', { timeframe: '2003-12-31T20 2004-01-01T02' }, 'timeframe', /2004-01-01/],
    ['category not in categories.json', { category: 2 }, 'category', /category id/],
    ['category negative', { category: -1 }, 'category', /category id/],
    ['category not an integer', { category: 1.5 }, 'category', /int/i],
    ['property unknown', { property: 'web' }, 'property', /expected one of/i],
    ['hl not a language tag', { hl: 'english please' }, 'hl', /language tag/],
    ['hl empty', { hl: '' }, 'hl', /language tag/],
    ['hl structurally invalid', { hl: 'en-US-US-US-x' }, 'hl', /language tag/],
    ['tz above 1440', { tz: 1441 }, 'tz', /1440/],
    ['tz below -1440', { tz: -1441 }, 'tz', /-1440/],
    ['tz not an integer', { tz: 60.5 }, 'tz', /int/i],
    ['tz as a string', { tz: '360' }, 'tz', /number/],
  ];
  it.each(rules)('rejects %s, naming the field', (_name, patch, field, message) => {
    const p = problemOf(patch);
    expect(p?.path).toBe(field);
    expect(p?.message).toMatch(message);
  });
});
