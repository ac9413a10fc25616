import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// A relocated list field takes every item of its list: the siblings of its best item with the same tag and
// classes, also an item whose text has another shape than the remembered ones (a skill of two words among
// one-word skills). A list missing one of its items is a wrong value.

const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'jobs',
    base_selector: 'li.job',
    fields: [
      { name: 'title', selector: 'h2.job-title a', type: 'text' },
      { name: 'company', selector: '.company', type: 'text' },
      { name: 'skills', selector: 'ul.skills li', type: 'list' },
      { name: 'posted', selector: '.posted', type: 'text' },
    ],
  },
});

const JOBS = [
  { title: 'Java Developer', company: 'Tidewater Bank', skills: ['Java', 'Spring Boot on Kubernetes'], posted: 'Posted 1 week ago' },
  { title: 'Backend Engineer', company: 'Fjord Freight', skills: ['Go', 'Kafka', 'SQL'], posted: 'Posted 2 days ago' },
  { title: 'Data Engineer', company: 'Lumen Grid', skills: ['Python', 'Airflow'], posted: 'Posted today' },
  { title: 'Platform Engineer', company: 'Quarry Sons', skills: ['Kubernetes', 'Terraform', 'AWS'], posted: 'Posted 5 days ago' },
  { title: 'Frontend Engineer', company: 'Orchard Labs', skills: ['TypeScript', 'React', 'CSS'], posted: 'Posted 3 days ago' },
  { title: 'Site Reliability Engineer', company: 'Beacon Health', skills: ['Linux', 'Prometheus'], posted: 'Posted yesterday' },
];

const page = (list: string) =>
  `<!doctype html><html><head><title>Jobs</title></head><body><header><a href="/">Jobs</a></header><main><h1>Engineer jobs</h1>${list}</main><footer><p>Jobs Example</p></footer></body></html>`;

function v1(): string {
  return page(`<ul class="jobs">${JOBS.map((j, i) => `<li class="job"><h2 class="job-title"><a href="/j/${i}">${j.title}</a></h2>
  <span class="company">${j.company}</span>
  <ul class="skills">${j.skills.map((s) => `<li>${s}</li>`).join('')}</ul>
  <span class="posted">${j.posted}</span></li>`).join('\n')}</ul>`);
}

function v2(): string {
  return page(`<ol class="results">${JOBS.map((j, i) => `<li class="card"><h2 class="card-title"><a href="/j/${i}">${j.title}</a></h2>
  <div class="card-org">${j.company}</div>
  <div class="card-skills">${j.skills.map((s) => `<span class="chip">${s}</span>`).join(' ')}</div>
  <div class="card-foot"><span class="age">${j.posted}</span></div></li>`).join('\n')}</ol>`);
}

const compiled = compileExtraction(SCHEMA);
const extract = (html: string, memory: SelectorMemory | null): ExtractionOutcome =>
  extractRecords(parseHtml(html), compiled, { pageUrl: 'https://jobs.example/search', memory, adaptive: true });

describe('a relocated list field', () => {
  it('takes every item of its list, also one of another shape', () => {
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(JOBS);
  });
});
