import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: a listing of papers lost each paper's "Comments: 12 pages, 3 figures" line. The note is classed
 * "list-comments", and class words naming comments marked it as a comment section. A short note opening with its
 * label, one in each of many alike items beside their other text, is the items' own field. Comment sections and
 * comments stay dropped. Our own small HTML.
 */
const markdownOf = (body: string, url = 'https://papers.example.org/list/harbour/recent', title = 'Harbour engineering: recent submissions') =>
  normalizeContent({ body: Buffer.from(page(body, `<title>${title}</title>`)), contentType: 'text/html; charset=utf-8', url }).markdown;

const PAPERS = [
  ['Tidal loads on timber piers: a field study of three Baltic harbours over two winters', 'Anna Lindqvist, Mensah Osei, Karl Berg, Ilse Vogel', 'Comments: 12 pages, 3 figures'],
  ['Scour around breakwater heads under oblique waves and strong ebb currents', 'Ryo Tanaka, Hana Sato', null],
  ['A survey of quay wall failures in European ports since the Second World War', 'Paul Moreau, Li Zhang, Kemi Adeyemi', 'Comments: 41 pages, 2 tables'],
  ['Wave overtopping on vertical seawalls with recurved parapets in storm conditions', 'Sean Brennan, Aoife Walsh', 'Comments: 9 pages, 6 figures'],
  ['Ice loads on harbour fenders and dolphins in brackish water of the northern Baltic', 'Eero Virtanen, Jonas Holm', 'Comments: 15 pages, 5 figures'],
  ['Sediment transport in dredged approach channels of tidal estuaries', 'Daniel Okafor, Grace Eze', null],
  ['Mooring line failures in long-period swell at exposed container berths', 'Tomas Ruiz, Ana Costa', 'Comments: 22 pages, 11 figures'],
  ['Corrosion of steel sheet piles in the splash zone after forty years of service', 'Wim de Vries, Noor Bakker, Piet Smit', null],
];

const listing = PAPERS.map(
  ([title, authors, note], i) => `<dt><a href="/abs/${i}">paper:${2600 + i}</a> [<a href="/pdf/${i}">pdf</a>]</dt>
  <dd><div class="meta"><div class="list-title"><span class="descriptor">Title:</span> ${title}</div>
  <div class="list-authors">${authors}</div>${note ? `<div class="list-comments">${note}</div>` : ''}
  <div class="list-subjects"><span class="descriptor">Subjects:</span> Coastal engineering; Fluid dynamics</div></div></dd>`,
).join('');

describe('notes named as comments in the items of a listing', () => {
  it('keeps every paper’s labelled "Comments:" note', () => {
    const md = markdownOf(`<div id="content"><h1>Harbour engineering</h1><h2>Recent submissions</h2><dl>${listing}</dl></div>`);
    for (const [title, , note] of PAPERS) {
      expect(md).toContain(title);
      if (note) expect(md).toContain(note);
    }
  });

  it('still drops a comment section after an article, whose comments open with labels', () => {
    const story = Array.from({ length: 6 }, (_, i) => `<p>The harbour board met on day ${i + 1} of the inquiry and heard evidence from engineers about the state of the old timber piers, the cost of repairs and the risk of leaving them.</p>`).join('');
    const comments = ['Update: the board has since voted to repair the north pier first, as the engineers advised', 'Correction: the hearing was on a Tuesday, not a Monday as the story said at first', 'Question: will the ferry still run from the south pier while the work goes on this winter'].map(
      (c, i) => `<div class="c-${i}"><span class="who">Harbour reader ${i} from the old town, posted this morning at ten</span><div class="comment-text">${c}</div></div>`,
    );
    const md = markdownOf(
      `<article><h1>Board weighs pier repairs</h1>${story}</article><section><h2>Readers respond</h2>${comments.join('')}</section>`,
      'https://news.example.org/2026/11/board-weighs-pier-repairs',
      'Board weighs pier repairs',
    );
    expect(md).toContain('the risk of leaving them');
    expect(md).not.toContain('voted to repair the north pier');
  });
});
