import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// Inside a relocated record, fields take elements by the assignment with the greatest total similarity: an element
// that is the only good one for one field is not given to another field that has a good element of its own
// (best pairs first would take it, and leave the first field null).

const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'jobs',
    base_selector: 'li.job',
    fields: [
      { name: 'title', selector: 'h2.job-title a', type: 'text' },
      { name: 'company', selector: '.company', type: 'text' },
      { name: 'badge', selector: '.badge', type: 'text' },
      { name: 'location', selector: '.location', type: 'text' },
    ],
  },
});

const JOBS = [
  { title: 'Backend Engineer', company: 'Fjord Freight', badge: 'Easy', location: 'Oslo, Norway' },
  { title: 'Data Engineer', company: 'Lumen Grid', badge: 'Urgent', location: 'Remote' },
  { title: 'Platform Engineer', company: 'Quarry Sons', badge: 'Easy', location: 'Leeds, UK' },
  { title: 'Mobile Engineer', company: 'Tidewater Bank', badge: 'New', location: 'Hybrid in Porto' },
  { title: 'Frontend Engineer', company: 'Orchard Labs', badge: 'Easy', location: 'Remote in Spain' },
  { title: 'Site Reliability Engineer', company: 'Beacon Health', badge: 'Urgent', location: 'Berlin' },
];

/** v1 also lists a job that is gone by the redesign, with a badge of two words. */
const GONE = { title: 'Support Engineer', company: 'Harbor Mills', badge: 'Easy apply', location: 'Cork, Ireland' };

const page = (list: string) =>
  `<!doctype html><html><head><title>Jobs</title></head><body><header><a href="/">Jobs</a></header><main><h1>Engineer jobs</h1>${list}</main><footer><p>Jobs Example</p></footer></body></html>`;

function v1(): string {
  return page(`<ul class="jobs">${[...JOBS, GONE].map((j, i) => `<li class="job"><h2 class="job-title"><a href="/j/${i}">${j.title}</a></h2>
  <div class="meta"><span class="company">${j.company}</span> <span class="badge">${j.badge}</span></div>
  <p class="location">${j.location}</p></li>`).join('\n')}</ul>`);
}

/** The redesign: the company moves into a block of its own, the badge down into the footer of the card. */
function v2(): string {
  return page(`<ol class="results">${JOBS.map((j, i) => `<li class="card"><h2 class="card-title"><a href="/j/${i}">${j.title}</a></h2>
  <div class="card-org"><i class="logo"></i> <span class="org-name">${j.company}</span></div>
  <p class="card-place">${j.location}</p>
  <p class="flag">${j.badge}</p></li>`).join('\n')}</ol>`);
}

const compiled = compileExtraction(SCHEMA);
const extract = (html: string, memory: SelectorMemory | null): ExtractionOutcome =>
  extractRecords(parseHtml(html), compiled, { pageUrl: 'https://jobs.example/search', memory, adaptive: true });

describe('field assignment in a relocated record', () => {
  it('gives each field its element when the best pair first would leave one field without any', () => {
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(JOBS);
  });
});
