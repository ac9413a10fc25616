import { parseHtml } from '@trawl/content';
import type { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords } from '../src/index.ts';
import { bigPage, expected, PAGE_URL, SCHEMA } from './fixtures.ts';
import { JOB_SCHEMA, JOBS, JOBS_URL, jobsExpected, jobsV1, jobsV2, NEWS_SCHEMA, newsExpected, newsV1, newsV2, STORIES } from './sites.ts';

function learnThenRelocate(schema: Extraction, before: string, after: string, pageUrl: string) {
  const compiled = compileExtraction(schema);
  const learned = extractRecords(parseHtml(before), compiled, { pageUrl, memory: null, adaptive: true });
  expect(learned.adaptive.action).toBe('matched');
  return extractRecords(parseHtml(after), compiled, { pageUrl, memory: learned.memory, adaptive: true });
}

describe('other kinds of page', () => {
  it('a table listing: classes renamed and a column inserted before the salary', () => {
    const out = learnThenRelocate(JOB_SCHEMA, jobsV1(), jobsV2(), JOBS_URL);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(jobsExpected(JOBS));
  });

  it('a news list with a tag list: items turned into articles, a heading around the link, parts reordered', () => {
    const out = learnThenRelocate(NEWS_SCHEMA, newsV1(), newsV2(), 'https://news.example/');
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(newsExpected(STORIES));
  });
});

describe('a 5,000-element page', () => {
  it('relocates every card of a full redesign, promos and page furniture left out', () => {
    const before = bigPage(380, null);
    const after = bigPage(380, { renamed: true, wrapper: true, container: 'article', reordered: true, promos: true });
    const root = parseHtml(after.html);
    let elements = 0;
    const count = (node: { children?: unknown[] }) => {
      for (const child of (node.children ?? []) as { type: string; children?: unknown[] }[]) {
        if (child.type === 'tag' || child.type === 'script' || child.type === 'style') {
          elements++;
          count(child);
        }
      }
    };
    count(root);
    expect(elements).toBeGreaterThanOrEqual(5000);
    const compiled = compileExtraction(SCHEMA);
    const learned = extractRecords(parseHtml(before.html), compiled, { pageUrl: PAGE_URL, memory: null, adaptive: true });
    const out = extractRecords(root, compiled, { pageUrl: PAGE_URL, memory: learned.memory, adaptive: true });
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(expected(after.products));
  });
});
