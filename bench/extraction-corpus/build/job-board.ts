import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, cookieBanner, doc, ent, esc, icon, links } from './html.ts';
import { attribute, list, template, text, type SiteBuild } from './site.ts';

// A job board's search results. The card element keeps its class in v2 (li.job-card is also what the board's
// analytics hook into) but everything inside is rebuilt: jc-* classes, location before company, skills as chips,
// salary and the apply badge moved into the footer, and a job-alert sign-up <li> between the cards. The v1 request
// still finds the cards, and none of its field selectors finds anything inside them.

const PAGE_URL = 'https://jobs.example.test/search?q=backend+engineer&l=Remote';

interface Job {
  jk: string;
  title: string;
  company: string;
  rating: string | null;
  location: string;
  salary: string | null;
  tags: string[];
  posted: string;
  badge: string | null;
}

const RAW: [string, string, string | null, string, string | null, string[], string, string | null][] = [
  ['Senior Backend Engineer (Go)', 'Fisher & Lane', '4.1', 'Remote in Berlin', '\u20ac70,000 \u2013 \u20ac85,000 a year', ['Go', 'PostgreSQL', 'Kubernetes'], 'Posted 3 days ago', 'Easy apply'],
  ['Backend Engineer, Payments', 'Kestrel Pay', '3.8', 'Remote (EU)', null, ['Java', 'Kafka'], 'Posted 1 day ago', null],
  ['Staff Software Engineer \u2013 Platform', 'Orbital Labs', null, 'Remote', '$180,000 \u2013 $220,000 a year', ['Rust', 'AWS', 'Terraform'], 'Posted 5 days ago', 'Urgently hiring'],
  ['Python Backend Developer', 'Greenleaf Health', '4.4', 'Remote in Lisbon', '\u20ac45,000 \u2013 \u20ac60,000 a year', ['Python', 'Django', 'Celery'], 'Posted today', 'Easy apply'],
  ['Node.js Engineer (m/f/d)', 'Ueberall GmbH', '3.9', 'Hybrid remote in Munich', null, ['Node.js', 'TypeScript'], 'Posted 2 days ago', null],
  ['Backend Engineer \u2013 Search & Ranking', 'Finch Marketplace', '4.0', 'Remote', '$150,000 \u2013 $175,000 a year', ['Elasticsearch', 'Go'], 'Posted 1 week ago', null],
  ['Senior Ruby on Rails Engineer', 'Atelier Commerce', '4.6', 'Remote in Canada', 'CA$130,000 \u2013 CA$150,000 a year', ['Ruby', 'Rails', 'PostgreSQL'], 'Posted 4 days ago', 'Easy apply'],
  ['Backend Engineer, Data Platform', 'Nimbus Analytics', null, 'Remote in Amsterdam', null, ['Scala', 'Spark'], 'Posted 6 days ago', null],
  ['Software Engineer II \u2013 APIs', 'Harbor Logistics', '3.6', 'Remote (US)', '$120,000 \u2013 $140,000 a year', ['C#', '.NET', 'Azure'], 'Posted 2 weeks ago', null],
  ['Golang Developer', 'Tessellate', '4.2', 'Remote in Warsaw', 'PLN 22,000 \u2013 28,000 a month', ['Go', 'gRPC'], 'Posted 3 days ago', 'Easy apply'],
  ['Backend Engineer (Elixir)', 'Quill & Co', '4.8', 'Remote', null, ['Elixir', 'Phoenix'], 'Posted 8 days ago', null],
  ['Senior PHP Engineer', 'Mercado Verde', '3.7', 'Remote in Madrid', '\u20ac50,000 \u2013 \u20ac62,000 a year', ['PHP', 'Symfony', 'MySQL'], 'Posted today', 'Urgently hiring'],
  ['Platform Engineer, Backend', 'Lumen Energy', null, 'Remote in Dublin', '\u20ac80,000 \u2013 \u20ac95,000 a year', ['Kubernetes', 'Go', 'GCP'], 'Posted 5 days ago', null],
  ['Backend Developer \u2013 Kotlin', 'Nordlys Bank', '4.3', 'Remote in Oslo', null, ['Kotlin', 'Spring'], 'Posted 1 day ago', 'Easy apply'],
  ['Principal Engineer, Distributed Systems', 'Arclight', '4.5', 'Remote', '$230,000 \u2013 $270,000 a year', ['Rust', 'C++'], 'Posted 3 weeks ago', null],
  ['Junior Backend Engineer', 'Pocket Tutor', '3.9', 'Remote in London', '\u00a335,000 \u2013 \u00a342,000 a year', ['Python', 'FastAPI'], 'Posted 2 days ago', null],
  ['Backend Engineer \u2013 Integrations', 'Sable HR', null, 'Remote (Europe)', null, ['TypeScript', 'NestJS', 'PostgreSQL'], 'Posted 4 days ago', null],
  ['Senior Java Developer', 'Cobalt Insurance', '3.5', 'Remote in Zurich', 'CHF 120,000 \u2013 140,000 a year', ['Java', 'Spring Boot'], 'Posted 6 days ago', 'Easy apply'],
];

function jobs(): Job[] {
  return RAW.map(([title, company, rating, location, salary, tags, posted, badge], i) => ({
    jk: (0xa81c2f + i * 0x1f3d).toString(16),
    title, company, rating, location, salary, tags, posted, badge,
  }));
}

function expected(j: Job): ExtractedRecord {
  return {
    title: j.title,
    url: `https://jobs.example.test/viewjob?jk=${j.jk}&from=serp`,
    job_id: j.jk,
    company: j.company,
    company_rating: j.rating,
    location: j.location,
    salary: j.salary,
    tags: j.tags,
    posted: j.posted,
    badge: j.badge,
    headline: `${j.title} at ${j.company}`,
  };
}

function cardV1(j: Job): string {
  return `  <li class="job-card" data-jk="${j.jk}">
    <div class="job-card__main">
      <h2 class="job-card__title"><a class="job-card__link" href="/viewjob?jk=${j.jk}&amp;from=serp" data-job-id="${j.jk}" id="job_${j.jk}"><span title="${attr(j.title)}">${ent(j.title)}</span></a></h2>
      <div class="job-card__company">
        <span class="company-name">${ent(j.company)}</span>${j.rating ? `\n        <span class="company-rating" aria-label="${j.rating} of 5 stars">${j.rating}${icon('star', 'icon icon-star')}</span>` : ''}
      </div>
      <div class="job-card__location">${esc(j.location)}</div>${
      j.salary ? `\n      <div class="job-card__salary">${icon('tag')}${ent(j.salary.replace(/ \u2013 /, '\u00a0\u2013\u00a0'))}</div>` : ''}
      <ul class="job-card__tags">${j.tags.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>
    </div>
    <div class="job-card__footer">
      <span class="job-card__date">${j.posted}</span>${j.badge ? `\n      <span class="job-card__badge">${j.badge}</span>` : ''}
      <button class="job-card__save" aria-label="Save job">${icon('heart')}</button>
    </div>
  </li>`;
}

function cardV2(j: Job): string {
  return `<li class="job-card" data-jk="${j.jk}" data-tracking="serp">
<div class="jc-head"><h2 class="jc-title"><a class="jc-title-link" href="viewjob?jk=${j.jk}&amp;from=serp" data-job-id="${j.jk}">${esc(j.title)}</a></h2><button class="jc-save" aria-label="Save job">${icon('heart', 'jc-icon')}</button></div>
<div class="jc-place">${esc(j.location)}</div>
<div class="jc-employer"><span class="jc-employer-name">${esc(j.company)}</span>${j.rating ? ` <span class="jc-stars" title="${j.rating} out of 5">${j.rating}</span>` : ''}</div>
<div class="jc-skills">${j.tags.map((t) => `<span class="jc-chip">${esc(t)}</span>`).join(' ')}</div>
<div class="jc-foot">${j.salary ? `<div class="jc-pay">${esc(j.salary)}</div>` : ''}<span class="jc-age">${j.posted}</span>${j.badge ? `<span class="jc-flag">${icon('check', 'jc-icon')} ${j.badge}</span>` : ''}</div>
</li>`;
}

const ALERT = `<li class="jobs-list__alert"><div class="jc-head"><h2 class="jc-title">Get new jobs for this search by email</h2></div><form action="/alerts" class="alert-form"><input type="email" name="email" placeholder="Email address"><button>Activate</button></form><p class="jc-age">You can cancel at any time.</p></li>`;

function v1(list_: Job[]): string {
  return doc({
    title: 'Backend Engineer Jobs, Remote | Jobfinder',
    body: `<header class="gnav"><a class="gnav__logo" href="/">jobfinder</a>
  <nav class="gnav__links" aria-label="Main">${links([['Find jobs', '/'], ['Company reviews', '/companies'], ['Salary guide', '/career/salaries'], ['Post a job', '/hire']], { ul: 'gnav__list' })}</nav>
  <a class="gnav__signin" href="/account/login">Sign in</a>
</header>
<div class="search-bar"><form action="/search"><input name="q" value="backend engineer" aria-label="What"><input name="l" value="Remote" aria-label="Where"><button type="submit">Find jobs</button></form></div>
<main class="serp">
  <aside class="serp__filters"><h2>Refine</h2>
    <div class="filter"><button class="filter__pill">Date posted</button><button class="filter__pill">Salary estimate</button><button class="filter__pill">Job type</button><button class="filter__pill">Experience level</button></div>
  </aside>
  <section class="serp__results">
    <div class="serp__meta"><h1>backend engineer jobs in Remote</h1><span class="serp__count">Page 1 of 412 jobs</span></div>
    <ul class="jobs-list" id="results">
${list_.map(cardV1).join('\n')}
    </ul>
    <nav class="pagination" aria-label="Pagination"><a href="/search?q=backend+engineer&amp;l=Remote&amp;start=20">Next</a></nav>
  </section>
</main>
<footer class="footer"><ul class="footer__links"><li><a href="/about">About</a></li><li><a href="/help">Help centre</a></li><li><a href="/legal">Terms</a></li></ul><p>&copy; 2025 Jobfinder</p></footer>
${cookieBanner('cookie-consent')}`,
  });
}

function v2(list_: Job[]): string {
  const items: string[] = [];
  list_.forEach((j, i) => {
    if (i === 6) items.push(ALERT);
    items.push(cardV2(j));
  });
  return doc({
    title: 'Backend Engineer Jobs, Remote | Jobfinder',
    body: `<header class="app-header" role="banner"><div class="app-header__inner"><a class="app-header__brand" href="/">jobfinder</a>
<nav class="app-header__nav" aria-label="Main"><a href="/">Find jobs</a> <a href="/companies">Company reviews</a> <a href="/career/salaries">Salaries</a> <a class="app-header__cta" href="/hire">Employers / Post a job</a></nav></div></header>
<main class="results-page">
<div class="results-page__search"><form action="/search"><input name="q" value="backend engineer"><input name="l" value="Remote"><button>Search</button></form></div>
<div class="results-page__grid">
<section class="results-page__list"><p class="results-page__count">412 jobs</p>
<ul class="jobs-list jobs-list--compact">
${items.join('\n')}
</ul>
<nav class="pager" aria-label="Pagination"><a href="search?q=backend+engineer&amp;l=Remote&amp;start=20">Next page</a></nav></section>
<aside class="results-page__detail"><p>Select a job to see its details.</p></aside>
</div>
</main>
<footer class="app-footer"><nav aria-label="Footer"><a href="/about">About</a> \u00b7 <a href="/help">Help</a> \u00b7 <a href="/legal">Terms</a></nav><p>\u00a9 2025 Jobfinder</p></footer>`,
  });
}

type Sel = { title: string; url: string; company: string; rating: string; location: string; salary: string; tags: string; posted: string; badge: string };
const fields = (s: Sel) => [
  text('title', s.title),
  attribute('url', s.url, 'href', 'absolute_url'),
  attribute('job_id', s.url, 'data-job-id'),
  text('company', s.company),
  text('company_rating', s.rating),
  text('location', s.location),
  text('salary', s.salary),
  list('tags', s.tags),
  text('posted', s.posted),
  text('badge', s.badge),
];
const computed = [template('headline', '{title} at {company}')];

export function build(): SiteBuild {
  const list_ = jobs();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'jobs',
      base_selector: 'ul.jobs-list > li.job-card',
      fields: fields({
        title: '.job-card__title', url: 'a.job-card__link', company: '.company-name', rating: '.company-rating',
        location: '.job-card__location', salary: '.job-card__salary', tags: '.job-card__tags li', posted: '.job-card__date',
        badge: '.job-card__badge',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'jobs',
      base_selector: 'ul.jobs-list > li.job-card',
      fields: fields({
        title: '.jc-title', url: 'a.jc-title-link', company: '.jc-employer-name', rating: '.jc-stars', location: '.jc-place',
        salary: '.jc-pay', tags: '.jc-skills .jc-chip', posted: '.jc-age', badge: '.jc-flag',
      }),
    },
    computed_fields: computed,
  };
  const records = list_.map(expected);
  return {
    id: 'job-board',
    meta: {
      kind: 'job board',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'fields_unmatched',
      hard_cases: [
        'the base selector still matches (li.job-card), so the fields must be relocated inside records the engine already has',
        'the job-alert <li> between cards reuses the card inner classes (jc-head, jc-title, jc-age) but not li.job-card',
        'salary (optional) has nbsp around the dash in v1; in v2 it moves into the footer next to the date',
        'job_id and url read two attributes of the same link; tags turn from <li>s into space-separated <span> chips',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list_),
    v2: v2(list_),
    expectedV1: records,
    expectedV2: records,
  };
}
