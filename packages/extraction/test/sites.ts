// Two more kinds of page for relocation: a table-based job board and a news list with a tag list.
import { Extraction } from '@trawl/contract';

export interface Job {
  role: string;
  place: string;
  pay: string;
  id: number;
}

export const JOBS: Job[] = [
  { role: 'Senior Backend Engineer', place: 'Berlin, DE', pay: '€85,000', id: 101 },
  { role: 'Product Designer', place: 'Lisbon, PT', pay: '€52,000', id: 102 },
  { role: 'Data Analyst', place: 'Remote', pay: '€48,500', id: 103 },
  { role: 'Site Reliability Engineer', place: 'Dublin, IE', pay: '€91,000', id: 104 },
  { role: 'Technical Writer', place: 'Vienna, AT', pay: '€55,000', id: 105 },
];

export const JOB_SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'jobs',
    base_selector: 'table.jobs tr.job',
    fields: [
      { name: 'role', selector: 'td.role a', type: 'text' },
      { name: 'link', selector: 'td.role a', type: 'attribute', attribute: 'href', transform: 'absolute_url' },
      { name: 'place', selector: 'td.place', type: 'text' },
      { name: 'pay', selector: 'td.pay', type: 'text' },
    ],
  },
});

export const JOBS_URL = 'https://jobs.example/board';

export function jobsExpected(jobs: Job[] = JOBS) {
  return jobs.map((j) => ({ role: j.role, link: `https://jobs.example/job/${j.id}`, place: j.place, pay: j.pay }));
}

export function jobsV1(jobs: Job[] = JOBS): string {
  const rows = jobs.map((j) => `<tr class="job"><td class="role"><a href="/job/${j.id}">${j.role}</a></td><td class="place">${j.place}</td><td class="pay">${j.pay}</td></tr>`);
  return `<html><body><h1>Open roles</h1><table class="jobs"><thead><tr><th>Role</th><th>Location</th><th>Salary</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}

/** Classes renamed, a "posted" column inserted before the salary, the table inside a wrapper. */
export function jobsV2(jobs: Job[] = JOBS): string {
  const rows = jobs.map(
    (j, i) => `<tr class="posting"><td class="c-title"><a href="/job/${j.id}">${j.role}</a></td><td class="c-loc">${j.place}</td><td class="c-date">${i + 2} days ago</td><td class="c-salary">${j.pay}</td></tr>`,
  );
  return `<html><body><h1>Open roles</h1><div class="board"><table class="listing"><thead><tr><th>Role</th><th>Location</th><th>Posted</th><th>Salary</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></body></html>`;
}

export interface Story {
  headline: string;
  author: string;
  tags: string[];
  id: number;
}

export const STORIES: Story[] = [
  { headline: 'Harbour bridge reopens after two years of repairs', author: 'Ana Silva', tags: ['city', 'transport'], id: 1 },
  { headline: 'Local bakery wins national bread prize', author: 'Tom Berg', tags: ['food'], id: 2 },
  { headline: 'Council approves budget for new library', author: 'Mia Chen', tags: ['politics', 'culture', 'city'], id: 3 },
  { headline: 'Storm warning for the coast this weekend', author: 'Leo Novak', tags: [], id: 4 },
];

export const NEWS_SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'stories',
    base_selector: 'ul.stories > li.story',
    fields: [
      { name: 'headline', selector: 'a.headline', type: 'text' },
      { name: 'url', selector: 'a.headline', type: 'attribute', attribute: 'href' },
      { name: 'author', selector: '.byline', type: 'text' },
      { name: 'tags', selector: 'ul.tags li', type: 'list' },
    ],
  },
});

export function newsExpected(stories: Story[] = STORIES) {
  return stories.map((s) => ({ headline: s.headline, url: `/news/${s.id}`, author: `By ${s.author}`, tags: s.tags.length > 0 ? s.tags : null }));
}

export function newsV1(stories: Story[] = STORIES): string {
  const items = stories.map(
    (s) => `<li class="story"><a class="headline" href="/news/${s.id}">${s.headline}</a><span class="byline">By ${s.author}</span>${
      s.tags.length > 0 ? `<ul class="tags">${s.tags.map((t) => `<li>${t}</li>`).join('')}</ul>` : ''
    }</li>`,
  );
  return `<html><body><header><a href="/">Daily</a></header><ul class="stories">${items.join('')}</ul></body></html>`;
}

/** Stories as articles with a heading around the link, byline and tags reordered, classes renamed. */
export function newsV2(stories: Story[] = STORIES): string {
  const items = stories.map(
    (s) => `<article class="teaser">${s.tags.length > 0 ? `<ul class="labels">${s.tags.map((t) => `<li>${t}</li>`).join('')}</ul>` : ''}<h2 class="teaser-title"><a class="teaser-link" href="/news/${s.id}">${s.headline}</a></h2><div class="meta"><span class="author">By ${s.author}</span></div></article>`,
  );
  return `<html><body><header><a href="/">Daily</a></header><section class="feed">${items.join('')}</section></body></html>`;
}
