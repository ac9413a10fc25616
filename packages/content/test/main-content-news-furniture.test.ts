import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure classes of news and blog pages written the way common publishing systems write them (our own small
 * HTML, shaped after no particular site): a related block whose cards are titled at its heading's own level, the
 * comment headings blog software prints ("14 thoughts on “…”"), a comment thread longer than the story beside it,
 * a newsletter box inside the story, and the strips of other stories news sites put under it ("Up next", "Don't
 * miss", "Editor's picks", "In other news", "Around the web").
 */
const markdownOf = (body: string, url = 'https://news.example.com/2026/05/02/harbour-budget', head = '') =>
  normalizeContent({ body: Buffer.from(page(body, `<title>Council agrees harbour budget</title>${head}`)), contentType: 'text/html; charset=utf-8', url }).markdown;

const story = (n: number, label = 'BODY') =>
  Array.from({ length: n }, (_, i) => `<p>${label} paragraph ${i + 1} tells how the harbour council voted, with the mayor's words, the fishing association's answer and the budget figures agreed after a long night of talks.</p>`).join('');

const comments = (n: number) =>
  Array.from({ length: n }, (_, i) => `<li class="comment" id="comment-${i}"><article class="comment-body"><footer class="comment-meta"><b class="fn">Reader${i}</b> <time>May ${(i % 28) + 1}, 2026 at 3:14 pm</time></footer>
    <div class="comment-content"><p>Comment ${i}: forty years in this town and I have never seen the council behave like this; the fishermen deserve better and the budget should have been published weeks ago.</p></div>
    <div class="reply"><a href="#respond">Reply</a></div></article></li>`).join('');

const cards = (n: number, label: string) =>
  Array.from({ length: n }, (_, i) => `<div class="card"><a href="/s/${label}-${i}"><img src="/i/${i}.jpg" alt=""><h3>${label} story ${i} about something else</h3></a><p>${label} excerpt ${i}: another story on the site.</p></div>`).join('');

describe('news and blog pages', () => {
  it('drops a related block whose cards carry headings of its own heading level', () => {
    const md = markdownOf(`<main><article><h1>Council agrees harbour budget</h1><div class="entry-content">${story(5)}
      <div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>Related</em></h3>${cards(3, 'Sailing')}</div></div></article></main>`);
    expect(md).toContain('BODY paragraph 5');
    expect(md).not.toContain('Sailing story');
  });

  it('ends a "Related" section at a sibling with a heading of its level that has no alike sibling', () => {
    const timeline = `<div class="chapter"><h3>Timeline</h3><ul><li>May 1: the vote is called</li><li>May 2: the budget passes</li><li>June: dredging starts</li></ul></div>`;
    const md = markdownOf(`<main><article><h1>Council agrees harbour budget</h1>${story(4)}<div class="box"><h3>Related</h3>${timeline}<div class="note">Corrections: none.</div></div></article></main>`);
    expect(md).toContain('the budget passes');
  });

  it('drops a comment thread headed the way blog software heads it, even when it outweighs the story', () => {
    for (const heading of ['14 thoughts on “Council agrees harbour budget”', 'One thought on “Council agrees harbour budget”', 'View all 30 comments']) {
      const md = markdownOf(`<div class="wrap"><div class="story"><h1>Council agrees harbour budget</h1>${story(2)}</div><div class="discussion"><h2>${heading}</h2><ol>${comments(30)}</ol></div></div>`);
      expect(md).toContain('BODY paragraph 2');
      expect(md).not.toContain('Comment 3:');
    }
  });

  it('keeps an essay\'s section headed "Thoughts"', () => {
    const md = markdownOf(`<main><article><h1>A year on the harbour</h1>${story(4)}<h2>Thoughts</h2>${story(2, 'THOUGHTS')}</article></main>`);
    expect(md).toContain('THOUGHTS paragraph 2');
  });

  it('drops comments named as such outside the article, whatever their heading and length', () => {
    const md = markdownOf(`<main><article><h1>Council agrees harbour budget</h1>${story(6)}</article><section class="comments"><h2>Discussion (12)</h2><ul>${comments(12)}</ul></section></main>`);
    expect(md).toContain('BODY paragraph 6');
    expect(md).not.toContain('Comment 3:');
  });

  it("keeps a forum thread's replies named as comments beside its first post", () => {
    const md = markdownOf(`<main><article><h1>Harbour budget: what do you think?</h1>${story(4)}</article><ul class="comments">${comments(6)}</ul></main>`, 'https://forum.example.com/threads/harbour-budget.4411/');
    expect(md).toContain('Comment 3:');
  });

  it('drops a newsletter box inside the story, and keeps a page that only mentions its email form', () => {
    const box = `<div class="inline-module"><h3>Get the Morning Brief</h3><p>Sign up for our free daily email with the top harbour stories.</p><form><input type="email" placeholder="Email"><button>Sign up</button></form></div>`;
    const md = markdownOf(`<main><article><h1>Council agrees harbour budget</h1>${story(3)}${box}${story(3, 'LATER')}</article></main>`);
    expect(md).toContain('LATER paragraph 3');
    expect(md).not.toContain('Morning Brief');
    const contact = markdownOf(`<main><h1>Contact the harbour office</h1><div class="contact">${story(3, 'CONTACT')}<form><input name="email"><button>Send</button></form></div></main>`);
    expect(contact).toContain('CONTACT paragraph 3');
  });

  it("drops the strips of other stories under the story: up next, don't miss, editor's picks, in other news, around the web", () => {
    const strips = ['Up next', 'Don’t miss', "Editor's picks", 'In other news', 'Around the web', 'Sponsored stories'];
    const md = markdownOf(`<main><div class="article"><h1>Council agrees harbour budget</h1>${story(6)}${strips.map((h, i) => `<div class="section"><h2>${h}</h2>${cards(3, `Strip${i}`)}</div>`).join('')}</div></main>`);
    expect(md).toContain('BODY paragraph 6');
    expect(md).not.toMatch(/Strip\d story/);
  });

  it('drops a paywall prompt, a recirculation module and "More coverage" named as such', () => {
    const paywall = `<div class="paywall"><h3>This story is for subscribers</h3><p>Subscribe for $1 a week to keep reading.</p><a href="/subscribe">Subscribe now</a></div>`;
    const recirc = `<div class="recirc-module">${cards(3, 'Recirc')}</div><div><h2>More coverage</h2>${cards(3, 'Coverage')}</div>`;
    const md = markdownOf(`<main><article><h1>Council agrees harbour budget</h1>${story(6)}${paywall}${recirc}</article></main>`);
    expect(md).toContain('BODY paragraph 6');
    for (const gone of ['for subscribers', 'Recirc story', 'Coverage story']) expect(md).not.toContain(gone);
  });

  it("on an article, drops a grid of short teaser cards after the story; on a service page keeps its offers' cards", () => {
    const grid = (label: string) => `<div class="x9f">${Array.from({ length: 4 }, (_, i) => `<div class="k2"><h3><a href="/r${i}">${label} ${i} with a long headline about the town</a></h3><p>${label} summary ${i} in a few words</p></div>`).join('')}</div>`;
    const body = `<main><div class="story-body"><h1>Council agrees harbour budget</h1>${story(7)}${grid('Teaser')}</div></main>`;
    const article = markdownOf(body, undefined, '<meta property="og:type" content="article">');
    expect(article).toContain('BODY paragraph 7');
    expect(article).not.toContain('Teaser 0');
    const service = markdownOf(body.replaceAll('Council agrees harbour budget', 'Harbour services'), 'https://harbour.example.com/services');
    expect(service).toContain('Teaser 0');
  });

  it('drops ad-slot labels, reading times, sign-in prompts, a lone "Continue reading" link and share bars written out, and keeps look-alike content', () => {
    const md = markdownOf(`<main><article><h1>Council agrees harbour budget</h1><div class="c1x"><a href="#">Share on Facebook</a> <a href="#">Share on Twitter</a> <a href="#">Share via Email</a></div>
      ${story(3)}<p>ADVERTISEMENT</p><div><span>Skip Advertisement</span></div><div class="c2y">Story continues below advertisement</div><p>Anzeige</p><div class="m">8 min read</div><p>Listen to this article</p>${story(3, 'LATER')}
      <ul><li><div class="t"><a href="/channels/messenger">Facebook Messenger</a></div><p>Reach the fleet where they chat.</p></li></ul><p>The council will publish on Facebook, Instagram and TikTok.</p>
      <p><a href="/2026/05/02/harbour-budget/full">Continue reading</a></p><div class="l3"><a href="/dredging">Learn more</a></div><div>Follow us on Instagram</div>
      <div class="p1"><a href="/join">Join</a> to see EXIF info for this image</div><h2>Create an account or sign in to comment</h2><p>You must be logged in to post a comment.</p><p>Sign in to the harbour office to pay your fees online.</p>
      <p><a href="/guides/moorings">Read full article<span class="sr-only">: A guide to winter moorings</span></a></p><p><a class="signin-button" href="/login">Sign In</a> or <a href="/register">Register</a> to comment.</p></article></main>`);
    expect(md).toContain('LATER paragraph 3');
    for (const gone of ['Share on', 'ADVERTISEMENT', 'Skip Advertisement', 'continues below', 'Anzeige', 'Continue reading', 'Learn more', 'Follow us', 'min read', 'Listen to', 'EXIF', 'Create an account', 'must be logged in', 'Read full article', 'to comment.']) expect(md).not.toContain(gone);
    expect(md).toContain('Facebook Messenger');
    expect(md).toContain('Facebook, Instagram and TikTok');
    expect(md).toContain('pay your fees online');
  });

  it("on a declared article without an <article> element, drops comments that do not hold the story's title, a classic 'commentlist' too", () => {
    const og = '<meta property="og:type" content="article">';
    const list = `<ol class="commentlist">${comments(20)}</ol>`;
    const wrap = `<div id="comments-wrap">${Array.from({ length: 40 }, (_, i) => `<div class="comment-item"><b>Reader${i}</b><p>Comment ${i}: write to the mayor, the fishermen deserve better than this budget.</p></div>`).join('')}</div>`;
    for (const thread of [list, wrap]) {
      const md = markdownOf(`<div id="page"><div class="post"><h1>Council agrees harbour budget</h1>${story(3)}</div>${thread}</div>`, undefined, og);
      expect(md).toContain('BODY paragraph 3');
      expect(md).not.toContain('Comment 3:');
    }
  });

  it('drops comments inside the article headed with a count glued on or a sentence', () => {
    for (const heading of ['Comments<span class="comments__count">15</span>', '<span class="text">This Post Has 18 Comments</span>']) {
      const md = markdownOf(`<main><article class="node"><h1>Council agrees harbour budget</h1>${story(3)}<section class="x7"><h2>${heading}</h2>${comments(18).replaceAll('li', 'div')}</section></article></main>`);
      expect(md).toContain('BODY paragraph 3');
      expect(md).not.toContain('Comment 3:');
    }
  });
});
