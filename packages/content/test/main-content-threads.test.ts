import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: on a forum thread, replies quoting earlier posts ("ann wrote: …") repeated those posts' words, so
 * a thread came back with much of its text twice. A quote whose word runs mostly appear outside quotes in the
 * content goes, with a wrapper holding only it and its attribution; a quote of anything not on the page stays, and
 * so do posts a forum draws as <blockquote>s. And a post's and a thread's figures ("Registered: 2016-07-02",
 * "Posts: 710", "Replies 1 Views 1.9k") came back between the posts: a block of such labels and numbers goes. Our
 * own small HTML, shaped like the common board software.
 */
const thread = (body: string) =>
  normalizeContent({ body: Buffer.from(page(`<main>${body}</main>`, '<title>Winter mooring</title>')), contentType: 'text/html; charset=utf-8', url: 'https://forum.example.com/viewtopic.php?t=4411' }).markdown;

const POSTS = [
  'Has anyone left a wooden boat on a swinging mooring through the winter here, and how often did you pump her out after the storms?',
  'I kept mine on the north buoy for three winters and pumped every Sunday, more after a gale; the harbour master checks the lines too.',
  'Chafe is the real danger, not the water: put hose on the pennant where it crosses the fairlead and look at it every fortnight.',
];
const post = (i: number, text: string) => `<div class="post" id="p${i}"><div class="author">sailor${i}</div><div class="content">${text}</div></div>`;

describe('forum threads', () => {
  it('drops quotes of posts the page shows, with their attribution, and keeps the replies', () => {
    const phpbb = `<blockquote><div><cite><a href="/u/0">sailor0</a> wrote:</cite>${POSTS[0]}</div></blockquote><p>Every fortnight at least, OWNWORDS-A.</p>`;
    const fluxbb = `<div class="quotebox"><cite>sailor1 wrote:</cite><blockquote><div><p>${POSTS[1]}</p></div></blockquote></div><p>Same buoy, OWNWORDS-B.</p>`;
    const md = thread([post(0, POSTS[0]), post(1, POSTS[1]), post(2, POSTS[2]), post(3, phpbb), post(4, fluxbb)].join(''));
    for (const text of POSTS) expect(md.split(text.slice(0, 40)).length - 1).toBe(1);
    expect(md).toContain('OWNWORDS-A');
    expect(md).toContain('OWNWORDS-B');
    expect(md).not.toContain('wrote:');
  });

  it('keeps a quote of something the page does not show, and posts drawn as blockquotes', () => {
    const letter = 'We regret to inform all berth holders that the winter rate rises by twelve percent from the first of November onwards.';
    const quoting = post(3, `<blockquote><cite>The harbour office wrote:</cite> ${letter}</blockquote><p>Twelve percent is too much.</p>`);
    const md = thread([post(0, POSTS[0]), post(1, POSTS[1]), quoting].join(''));
    expect(md).toContain('winter rate rises by twelve percent');
    const drawn = thread(POSTS.map((text, i) => `<div class="message"><b>sailor${i}</b><blockquote class="messageText">${text}</blockquote></div>`).join(''));
    for (const text of POSTS) expect(drawn).toContain(text.slice(0, 40));
  });

  it("drops a post's and a thread's figures, and keeps a post's edit date and words about posts", () => {
    const stats = (i: number) => `<dl class="postprofile"><dd>Registered: 2016-07-0${i + 1}</dd><dd>Posts: ${710 + i}</dd></dl><div class="meta">Last edited: Jul ${i + 9}, 2022</div>`;
    const md = thread(`<div class="stats">Replies 3 Views 1.9k Created 1 yr</div>${POSTS.map((text, i) => post(i, `${stats(i)}<p>${text}</p>`)).join('')}${post(3, '<p>Posts: the ones on the north quay are rotten.</p>')}`);
    for (const text of POSTS) expect(md).toContain(text.slice(0, 40));
    for (const gone of ['Registered:', 'Posts: 71', 'Views 1.9k']) expect(md).not.toContain(gone);
    expect(md).toContain('Last edited: Jul 9, 2022');
    expect(md).toContain('the ones on the north quay are rotten');
  });

  it("drops a reply's subject line that repeats the thread's title after 'Re:', and keeps other headings", () => {
    const md = thread(`<h1>Winter mooring</h1>${POSTS.map((text, i) => post(i, `${i ? '<h3><a href="#p">Re: Winter mooring</a></h3>' : ''}<p>${text}</p>`)).join('')}${post(3, '<h3>Re-rigging the mast</h3><p>Done in March.</p>')}`);
    expect(md).not.toContain('Re: Winter');
    expect(md).toContain('Re-rigging the mast');
    for (const text of POSTS) expect(md).toContain(text.slice(0, 40));
  });
});
