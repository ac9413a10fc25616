import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: a form to fill in (an e-book download, contact or lead form) placed inside the article's own
 * container. Its labels, required-field legends and help texts came back as article text. A form with two or more
 * controls a reader types into is dropped when it is small next to the page; a page that is one big form (a site
 * built inside a single <form>) keeps its content. Our own small HTML, written for the test.
 */
const markdownOf = (body: string) =>
  normalizeContent({ body: Buffer.from(page(body, '<title>Renting vans</title>')), contentType: 'text/html; charset=utf-8', url: 'https://insure.example.com/guides/renting-vans' }).markdown;

const PROSE = [
  'Renting a van for a weekend move looks simple until the counter clerk asks who will be driving, and for how long.',
  'Check the fuel policy, photograph every scratch before you leave, and keep the rental agreement in the glove box.',
  'Drivers from abroad should carry their licence and passport together; some counters also ask for a return ticket.',
  'Report any loss within a day: the insurer needs the police reference and the rental company’s damage report.',
].map((s) => `<p>${s} ${s}</p>`).join('');

const LEAD_FORM = `<div class="gform_wrapper"><p class="gform_description">Fill out the form to get a copy of our ebook.</p>
  <form method="post" action="/guides/renting-vans#gf_3"><ul>
  <li><label>First Name*</label><input type="text" name="first"></li>
  <li><label>Last Name*</label><input type="text" name="last"></li>
  <li><label>Email*</label><input type="email" name="email"></li>
  <li><label>Number of Employees*</label><select name="size"><option>1-10</option></select></li>
  <li><label>Lead Source</label><div class="gfield_description">This field is hidden when viewing the form</div><input type="hidden" name="src"></li>
  </ul><input type="submit" value="Send me the ebook"></form></div>`;

describe('forms to fill in', () => {
  it('drops a lead form inside the article container', () => {
    const md = markdownOf(`<main><article><h1>Renting vans</h1>${PROSE}${LEAD_FORM}</article></main>`);
    expect(md).toContain('counter clerk');
    expect(md).toContain('police reference');
    for (const label of ['First Name', 'Number of Employees', 'This field is hidden', 'Lead Source']) expect(md).not.toContain(label);
  });

  it('keeps a search form with a single box and the text around it', () => {
    const md = markdownOf(`<main><article><h1>Renting vans</h1>${PROSE}<form action="/search"><label>Search our guides</label><input type="search" name="q"></form><p class="after">Related guides are listed by topic.</p></article></main>`);
    expect(md).toContain('Search our guides');
  });

  it('keeps the content of a page built inside one big form', () => {
    const md = markdownOf(`<form method="post" action="/default.aspx"><input type="hidden" name="__VIEWSTATE" value="x">
      <div class="top"><input type="text" name="user"><input type="password" name="pass"></div>
      <div class="content"><h1>Renting vans</h1>${PROSE}</div></form>`);
    expect(md).toContain('counter clerk');
    expect(md).toContain('police reference');
  });
});
