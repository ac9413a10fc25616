import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { categoryIds, DEFAULT_CATEGORIES_JSON, renderModule } from '../../../scripts/gen-trends-categories.ts';
import { TRENDS_CATEGORY_IDS } from '../src/index.ts';

describe('generated Google Trends category ids', () => {
  it('match the recorded categories.json exactly (rerun scripts/gen-trends-categories.ts)', () => {
    const ids = categoryIds(JSON.parse(readFileSync(DEFAULT_CATEGORIES_JSON, 'utf8')));
    expect(ids).toHaveLength(1133);
    expect(TRENDS_CATEGORY_IDS).toEqual(ids);
    const committed = readFileSync(new URL('../src/trends-categories.ts', import.meta.url), 'utf8');
    expect(committed).toBe(renderModule(ids));
  });

  it('span 0 (all categories) to 1397', () => {
    expect(TRENDS_CATEGORY_IDS[0]).toBe(0);
    expect(TRENDS_CATEGORY_IDS.at(-1)).toBe(1397);
  });
});
