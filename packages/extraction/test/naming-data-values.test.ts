import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// Naming data- values (data-hook="review-body", data-testid="title") often survive a redesign that renames every
// class and changes tags: memory keeps those every sampled element of a field (or record) carried and weighs them,
// so a field whose element changed tag, children and place is still relocated by its name. A data- value that
// varies between records (a category) is not remembered, and never counts against a candidate.

const URL = 'https://shop.example/kettle/reviews';
const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'reviews',
    base_selector: '#reviews > div.review',
    fields: [
      { name: 'who', selector: '.review__name', type: 'text' },
      { name: 'title', selector: 'a.review__title', type: 'text' },
      { name: 'date', selector: '.review__date', type: 'text' },
      { name: 'body', selector: '.review__text', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

const REVIEWS = [
  { who: 'Ana', title: 'Pours well', date: 'Reviewed on 3 March', body: ['Controlled pour for filter coffee.', 'Lid is a bit loose.'], kind: 'long' },
  { who: 'Ben K', title: 'Stopped heating', date: 'Reviewed on 1 March', body: ['Worked at first.', 'Then the base clicked and never heated.'], kind: 'short' },
  { who: 'Chloe', title: 'Precise and quiet', date: 'Reviewed on 24 February', body: ['Accurate to a degree.', 'Quiet too.'], kind: 'long' },
  { who: 'Dev', title: 'Good, but small', date: 'Reviewed on 20 February', body: ['0.9 L is enough for one cup.', 'Not for a pot.'], kind: 'short' },
  { who: 'Eve M', title: 'Nice to look at', date: 'Reviewed on 11 February', body: ['Display is hard to read in daylight.', 'Otherwise fine.'], kind: 'long' },
  { who: 'Femi', title: 'Leaks', date: 'Reviewed on 2 February', body: ['Water under the base', 'after a week.'], kind: 'short' },
];

function page(list: string): string {
  return `<!doctype html><html><head><title>Reviews</title></head><body><header><a href="/">Shop</a></header><main><h1>Reviews</h1>${list}</main><footer><p>Shop Example</p></footer></body></html>`;
}

function v1(): string {
  const items = REVIEWS.map(
    (r) => `<div class="review" data-hook="review" data-kind="${r.kind}"><div class="review__head"><span class="review__name">${r.who}</span></div>
  <div class="review__row"><a class="review__title" data-hook="review-title" href="/r/${r.who.length}"><span>${r.title}</span></a></div>
  <span class="review__date" data-hook="review-date">${r.date}</span>
  <div class="review__data"><span class="review__text" data-hook="review-body"><span>${r.body.join('<br><br>')}</span></span></div>
  <div class="review__foot"><a class="review__report" href="/report">Report</a></div></div>`,
  );
  return page(`<div id="reviews">${items.join('\n')}</div>`);
}

/** Every class renamed, the body a block placed before the date, the title inside a heading. */
function v2(): string {
  const items = REVIEWS.map(
    (r) => `<li class="rv" data-hook="review" data-kind="${r.kind === 'long' ? 'short' : 'long'}"><div class="rv-a"><span class="rv-n">${r.who}</span></div>
  <div class="rv-b" data-hook="review-body"><span>${r.body.join('<br><br>')}</span></div>
  <h3 class="rv-t"><a data-hook="review-title" href="/r/${r.who.length}">${r.title}</a></h3>
  <span class="rv-d" data-hook="review-date">${r.date}</span>
  <div class="rv-f"><a class="rv-r" href="/report">Report</a></div></li>`,
  );
  return page(`<ul id="rv-list">${items.join('\n')}</ul>`);
}

function extract(html: string, memory: SelectorMemory | null): ExtractionOutcome {
  return extractRecords(parseHtml(html), compiled, { pageUrl: URL, memory, adaptive: true });
}

describe('naming data- values', () => {
  it('relocate a field whose element changed tag, children and place but kept its data-hook', () => {
    const learned = extract(v1(), null);
    expect(learned.adaptive.action).toBe('matched');
    const memory = parseSelectorMemory(JSON.stringify(learned.memory))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records.map(({ body: _, ...rest }) => rest)).toEqual(REVIEWS.map((r) => ({ who: r.who, title: r.title, date: r.date })));
    // A prose block whose text shape changed may stay null (an open case), but is never another record's text.
    out.records.forEach((record, k) => expect([null, REVIEWS[k].body.join(' ')]).toContain(record.body));
    expect(out.records.filter((record) => record.body !== null).length).toBeGreaterThanOrEqual(REVIEWS.length / 2);
  });

  it('remembers only the values every sampled element carried', () => {
    const memory = extract(v1(), null).memory!;
    expect(memory.base.every((fp) => fp.v.length === 1 && fp.v[0] === 'data-hook=review')).toBe(true);
    expect(memory.fields[3]!.fp.every((fp) => fp.v.join() === 'data-hook=review-body')).toBe(true);
  });

  it('reads memory written before naming values were kept', () => {
    const memory = extract(v1(), null).memory!;
    const old = JSON.parse(JSON.stringify(memory, (key, value) => (key === 'v' && Array.isArray(value) ? undefined : value)));
    const parsed = parseSelectorMemory(old);
    expect(parsed).not.toBeNull();
    expect(parsed!.base[0].v).toEqual([]);
  });
});
