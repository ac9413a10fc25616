import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction } from '../src/index.ts';
import { redesign } from './helpers.ts';

// A redesign that moves text leaves to tags of another family (li → span, time → span, dd → span) still
// relocates those fields: the tag of a leaf holding text is styling; the rest of its fingerprint says what it is.

const URL = 'https://jobs.example/search?q=engineer';
const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'jobs',
    base_selector: 'li.job',
    fields: [
      { name: 'title', selector: 'h2.job-title a', type: 'text' },
      { name: 'company', selector: 'dl.meta dd.company', type: 'text' },
      { name: 'skills', selector: 'ul.skills li', type: 'list' },
      { name: 'posted', selector: 'time.posted', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

const JOBS = [
  { title: 'Backend Engineer', company: 'Fjord Freight', skills: ['Go', 'PostgreSQL', 'Kafka'], posted: 'Posted 2 days ago' },
  { title: 'Data Engineer', company: 'Lumen Grid', skills: ['Python', 'Airflow'], posted: 'Posted today' },
  { title: 'Platform Engineer', company: 'Quarry & Sons', skills: ['Kubernetes', 'Terraform', 'AWS'], posted: 'Posted 5 days ago' },
  { title: 'Mobile Engineer', company: 'Tidewater Bank', skills: ['Kotlin', 'Swift'], posted: 'Posted 1 week ago' },
  { title: 'Frontend Engineer', company: 'Orchard Labs', skills: ['TypeScript', 'React', 'CSS'], posted: 'Posted 3 days ago' },
  { title: 'Site Reliability Engineer', company: 'Beacon Health', skills: ['Linux', 'Prometheus'], posted: 'Posted yesterday' },
];

function page(list: string): string {
  return `<!doctype html><html><head><title>Jobs</title></head><body><header><a href="/">Jobs</a></header><main><h1>Engineer jobs</h1>${list}</main><footer><p>Jobs Example</p></footer></body></html>`;
}

function v1(): string {
  const items = JOBS.map(
    (j, i) => `<li class="job"><h2 class="job-title"><a href="/j/${i}">${j.title}</a></h2>
  <dl class="meta"><dt>Company</dt><dd class="company">${j.company}</dd></dl>
  <ul class="skills">${j.skills.map((s) => `<li>${s}</li>`).join('')}</ul>
  <time class="posted" datetime="2025-01-0${i + 1}">${j.posted}</time></li>`,
  );
  return page(`<ul class="jobs">${items.join('\n')}</ul>`);
}

/** The same jobs with the leaves restyled: company, skills and date in spans; the card keeps its class or not. */
function v2(card: string): string {
  const items = JOBS.map(
    (j, i) => `<li class="${card}"><h2 class="job-title"><a href="/j/${i}">${j.title}</a></h2>
  <div class="meta"><span class="employer">${j.company}</span></div>
  <div class="chips">${j.skills.map((s) => `<span class="chip">${s}</span>`).join('')}</div>
  <span class="age">${j.posted}</span></li>`,
  );
  return page(`<ul class="jobs">${items.join('\n')}</ul>`);
}

const { learned, extract } = redesign(compiled, URL, v1);

describe('text leaves under tags of another family', () => {
  it('are relocated inside the records when the base selector still matches', () => {
    const out = extract(v2('job'));
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(JOBS);
  });

  it('are relocated with the records when the base selector matches nothing', () => {
    const out = extract(v2('vacancy'));
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(JOBS);
  });

  it('leave a field null rather than take an item of a list in a record without it', () => {
    // One job has no company: nothing there may be taken for one, least of all a skill chip.
    const html = v2('job').replace('<span class="employer">Lumen Grid</span>', '');
    const out = extract(html);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(JOBS.map((j) => (j.company === 'Lumen Grid' ? { ...j, company: null } : j)));
  });
});
