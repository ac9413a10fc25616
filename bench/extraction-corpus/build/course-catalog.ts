import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { doc, ent, esc } from './html.ts';
import { attribute, list, template, text, type SiteBuild } from './site.ts';

// A university course catalogue in the CourseLeaf style: div.courseblock with a title paragraph and "extra"
// paragraphs told apart by a second class. The new catalogue (v2) uses <article> per course, a header and a
// body wrapper, and plain <p class="c-extra"> for every extra paragraph: prerequisite, instructor and terms
// are told apart only by their label and order (terms now before instructor, prerequisite missing for
// introductory courses).

const PAGE_URL = 'https://uni.example.test/catalog/2025-26/computer-science/';

interface Course {
  code: string;
  title: string;
  units: number;
  description: string;
  prereqs: string[];
  prereqNote: string;
  instructor: string;
  terms: string;
}

const RAW: [string, string, number, string, string[], string, string, string][] = [
  ['COMP 101', 'Introduction to Programming', 4, 'Fundamentals of programming in Python: variables, control flow, functions, and simple data structures.', [], '', 'Dr. Priya Raman', 'Fall, Spring'],
  ['COMP 110', 'Discrete Structures', 4, 'Logic, sets, relations, functions, induction, counting and elementary graph theory.', [], '', 'Prof. Alan Whitcombe', 'Fall'],
  ['COMP 201', 'Data Structures', 4, 'Lists, stacks, queues, trees, hash tables and graphs; analysis of running time.', ['COMP 101'], ' or equivalent experience.', 'Dr. Mei Lin', 'Fall, Spring'],
  ['COMP 215', 'Computer Organization', 4, 'Number representation, assembly language, memory hierarchy and the processor datapath.', ['COMP 101'], '.', 'Dr. Tomasz Nowak', 'Spring'],
  ['COMP 230', 'Web Development', 3, 'HTML, CSS, accessibility and client-side JavaScript; building and deploying small applications.', ['COMP 101'], '.', 'Ms. Hana Sato', 'Fall, Spring, Summer'],
  ['COMP 301', 'Algorithms', 4, 'Divide and conquer, dynamic programming, greedy algorithms, graph algorithms and NP-completeness.', ['COMP 201', 'COMP 110'], '.', 'Prof. Alan Whitcombe', 'Fall'],
  ['COMP 315', 'Operating Systems', 4, 'Processes, threads, scheduling, virtual memory, file systems and concurrency.', ['COMP 201', 'COMP 215'], '.', 'Dr. Tomasz Nowak', 'Spring'],
  ['COMP 320', 'Databases', 4, 'Relational model, SQL, normalization, indexing, transactions and query processing.', ['COMP 201'], '.', 'Dr. Mei Lin', 'Fall'],
  ['COMP 335', 'Computer Networks', 4, 'Layered architectures, TCP/IP, routing, congestion control and network security basics.', ['COMP 215'], '; COMP 315 recommended.', 'Dr. Samuel Adeyemi', 'Spring'],
  ['COMP 350', 'Software Engineering', 4, 'Requirements, design, testing and maintenance in team projects; version control and code review.', ['COMP 201'], '.', 'Ms. Hana Sato', 'Fall, Spring'],
  ['COMP 372', 'Machine Learning', 4, 'Supervised and unsupervised learning, model evaluation, regularization and neural networks.', ['COMP 301', 'MATH 221'], '.', 'Dr. Priya Raman', 'Spring'],
  ['COMP 390', 'Special Topics: Compilers', 3, 'Lexing, parsing, semantic analysis, intermediate representations and code generation.', ['COMP 301'], ' and instructor consent.', 'Dr. Samuel Adeyemi', 'Fall'],
  ['COMP 410', 'Distributed Systems', 4, 'Replication, consensus, fault tolerance, consistency models and case studies of large systems.', ['COMP 315', 'COMP 335'], '.', 'Dr. Tomasz Nowak', 'Fall'],
  ['COMP 499', 'Senior Capstone', 4, 'A two-term team project with an industry or research partner, ending in a public demonstration.', [], '', 'Staff', 'Fall, Spring'],
];

function courses(): Course[] {
  return RAW.map(([code, title, units, description, prereqs, prereqNote, instructor, terms]) => ({ code, title, units, description, prereqs, prereqNote, instructor, terms }));
}

const prereqText = (c: Course) => `Prerequisite${c.prereqs.length > 1 ? 's' : ''}: ${c.prereqs.join(' and ')}${c.prereqNote}`;

function expected(c: Course): ExtractedRecord {
  return {
    code: c.code,
    title: c.title,
    units: `(${c.units} units)`,
    description: c.description,
    prerequisites: c.prereqs.length ? prereqText(c) : null,
    prereq_codes: c.prereqs.length ? c.prereqs : null,
    prereq_link: c.prereqs.length ? `https://uni.example.test/search/?P=${c.prereqs[0].replace(' ', '%20')}` : null,
    instructor: `Instructor: ${c.instructor}`,
    terms: `Offered: ${c.terms}`,
    heading: `${c.code} ${c.title}`,
  };
}

const prereqLinks = (c: Course, prefix: string, cls: string) =>
  c.prereqs.map((p) => `<a href="${prefix}search/?P=${p.replace(' ', '%20')}" class="${cls}" title="${p.replace(' ', '&nbsp;')}" onclick="return showCourse(this, '${p}');">${p.replace(' ', '&nbsp;')}</a>`).join(' and ');

function blockV1(c: Course): string {
  return `<div class="courseblock">
<p class="courseblocktitle noindent"><strong><span class="text detail-code margin--small text--semibold text--big">${c.code.replace(' ', '&nbsp;')}.</span>  <span class="text detail-title margin--small text--semibold text--big">${ent(c.title)}.</span> <span class="text detail-hours_html margin--small text--semibold text--big">(${c.units} units)</span></strong></p>
<p class="courseblockdesc noindent">
${ent(c.description)}
</p>${c.prereqs.length ? `
<p class="courseblockextra noindent prereq"><strong>Prerequisite${c.prereqs.length > 1 ? 's' : ''}:</strong> ${prereqLinks(c, '/', 'bubblelink code')}${esc(c.prereqNote)}</p>` : ''}
<p class="courseblockextra noindent instructor"><strong>Instructor:</strong> ${esc(c.instructor)}</p>
<p class="courseblockextra noindent terms">Offered: ${c.terms}</p>
</div>`;
}

function blockV2(c: Course): string {
  return `<article class="course" id="${c.code.toLowerCase().replace(' ', '-')}">
<header class="course__head"><h3 class="course__title"><span class="c-code">${c.code}.</span> <span class="c-name">${esc(c.title)}.</span></h3><span class="c-units">(${c.units} units)</span></header>
<div class="course__body">
<p class="c-desc">${esc(c.description)}</p>${c.prereqs.length ? `
<p class="c-extra"><strong>Prerequisite${c.prereqs.length > 1 ? 's' : ''}:</strong> ${prereqLinks(c, '../../../', 'c-link')}${esc(c.prereqNote)}</p>` : ''}
<p class="c-extra">Offered: ${c.terms}</p>
<p class="c-extra"><strong>Instructor:</strong> ${esc(c.instructor)}</p>
</div>
</article>`;
}

function v1(list_: Course[]): string {
  return doc({
    title: 'Computer Science (COMP) < University Catalog 2025-26',
    body: `<header id="header" role="banner"><div class="wrap"><a id="logo" href="/"><img src="/images/logo.svg" alt="Example University"></a><h1 id="site-title">2025-26 University Catalog</h1></div></header>
<nav id="breadcrumb" aria-label="Breadcrumb"><ul><li><a href="/catalog/">Home</a></li><li><a href="/catalog/2025-26/">2025-26</a></li><li>Computer Science (COMP)</li></ul></nav>
<div id="content-container">
<div id="col-nav"><nav id="cl-menu" aria-label="Catalog"><ul class="nav levelone"><li><a href="/catalog/2025-26/accounting/">Accounting (ACCT)</a></li><li><a href="/catalog/2025-26/biology/">Biology (BIOL)</a></li><li class="active"><a href="/catalog/2025-26/computer-science/">Computer Science (COMP)</a></li><li><a href="/catalog/2025-26/economics/">Economics (ECON)</a></li></ul></nav></div>
<div id="col-content" class="page_content" role="main">
<h1 class="page-title">Computer Science (COMP)</h1>
<div id="textcontainer" class="page_content"><p>Courses numbered 100\u2013299 are lower division. Units are semester units.</p></div>
<div id="coursestextcontainer"><div class="sc_sccoursedescs">
${list_.map(blockV1).join('\n')}
</div></div>
</div>
</div>
<footer id="footer"><p>Office of the Registrar &middot; <a href="/registrar/">registrar</a> &middot; <a href="/catalog/archive/">Catalog archive</a></p></footer>`,
  });
}

function v2(list_: Course[]): string {
  return doc({
    title: 'Computer Science (COMP) | Catalog 2025\u201326',
    body: `<header class="site-hd" role="banner"><a class="site-hd__logo" href="/">Example University</a><nav class="site-hd__nav" aria-label="Main"><a href="/admissions/">Admissions</a> <a href="/academics/">Academics</a> <a href="/catalog/">Catalog</a></nav></header>
<div class="layout">
<nav class="side" aria-label="Subjects"><h2>Subjects</h2><ul><li><a href="../accounting/">Accounting</a></li><li><a href="../biology/">Biology</a></li><li aria-current="page">Computer Science</li><li><a href="../economics/">Economics</a></li></ul></nav>
<main class="main">
<h1>Computer Science (COMP)</h1><p class="lead">Courses numbered 100\u2013299 are lower division. Units are semester units.</p>
<section class="course-list" aria-label="Courses">
${list_.map(blockV2).join('\n')}
</section>
</main>
</div>
<footer class="site-ft"><p>Office of the Registrar \u00b7 <a href="/registrar/">Registrar</a></p></footer>`,
  });
}

type Sel = { code: string; title: string; units: string; description: string; prerequisites: string; codes: string; link: string; instructor: string; terms: string };
const fields = (s: Sel) => [
  text('code', s.code),
  text('title', s.title),
  text('units', s.units),
  text('description', s.description),
  text('prerequisites', s.prerequisites),
  list('prereq_codes', s.codes),
  attribute('prereq_link', s.link, 'href', 'absolute_url'),
  text('instructor', s.instructor),
  text('terms', s.terms),
];
const computed = [template('heading', '{code} {title}')];

export function build(): SiteBuild {
  const list_ = courses();
  // code and title keep their trailing period in the markup ("COMP 101." "Introduction to Programming."):
  // the request reads them as written, so the expected values carry it too.
  const withPeriods = (r: ExtractedRecord): ExtractedRecord => ({ ...r, code: `${r.code}.`, title: `${r.title}.`, heading: `${r.code}. ${r.title}.` });
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'courses',
      base_selector: '.sc_sccoursedescs > .courseblock',
      fields: fields({
        code: '.detail-code', title: '.detail-title', units: '.detail-hours_html', description: '.courseblockdesc',
        prerequisites: '.courseblockextra.prereq', codes: '.prereq a.code', link: '.prereq a.bubblelink', instructor: '.courseblockextra.instructor',
        terms: '.courseblockextra.terms',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'courses',
      base_selector: 'section.course-list > article.course',
      fields: fields({
        code: '.c-code', title: '.c-name', units: '.c-units', description: '.c-desc', prerequisites: 'p.c-extra:has(a.c-link)',
        codes: 'a.c-link', link: 'a.c-link', instructor: 'p.c-extra:last-child', terms: 'p.c-extra:nth-last-child(2)',
      }),
    },
    computed_fields: computed,
  };
  const records = list_.map(expected).map(withPeriods);
  return {
    id: 'course-catalog',
    meta: {
      kind: 'course catalogue',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'container_tag_changed', 'extra_wrapper', 'fields_reordered', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'v2 gives prerequisite, terms and instructor one class (c-extra): they differ only by their label text ("Prerequisite:", "Offered:", "Instructor:") and position, and the prerequisite paragraph is missing for three courses',
        'terms and instructor swap order; the instructor paragraph is last in v2',
        'code has nbsp between letters and digits in v1 ("COMP&nbsp;101.") and a plain space in v2; description has newlines around it in v1',
        'prereq_link resolves "/search/?P=…" (v1) and "../../../search/?P=…" (v2) to the same URL against a page URL with a trailing slash',
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
