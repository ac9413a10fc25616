import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

/**
 * Failure class: an FAQ drawn as an accordion puts each question in the <button> that opens its answer. Buttons
 * are controls, so the questions were dropped and the answers came back without them. A button inside a heading,
 * holding a heading, or expanding a section (aria-expanded) with a question as its text carries the section's
 * title and is read as text; other buttons are not. Our own small HTML, written for the test.
 */
const markdownOf = (body: string) =>
  normalizeContent({ body: Buffer.from(page(body, '<title>Tide pools</title>')), contentType: 'text/html; charset=utf-8', url: 'https://shore.example.com/guide' }).markdown;

const ANSWER = 'Bring shoes with a good grip, a tide table for the day and a bucket of sea water for a closer look.';

describe('section toggles', () => {
  it("keeps an accordion's questions, whichever way the button carries them", () => {
    const faq = [
      `<h3><button class="accordion-button" aria-expanded="false" aria-controls="a1">What should I bring to the shore?</button></h3><div id="a1" hidden><p>${ANSWER}</p></div>`,
      `<button class="faq-toggle" aria-expanded="false"><h4>When is the best tide</h4></button><div><p>Two hours either side of low water, on a calm morning with little swell.</p></div>`,
      `<button class="faq-q" aria-expanded="true">Can children visit the rock pools alone?</button><div><p>Only with an adult: the rocks are slippery and the tide comes in fast.</p></div>`,
    ].join('');
    const md = markdownOf(`<main><h1>Tide pools</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}<h2>Questions</h2>${faq}</main>`);
    expect(md).toContain('### What should I bring to the shore?');
    expect(md).toContain('When is the best tide');
    expect(md).toContain('Can children visit the rock pools alone?');
    expect(md).toContain(ANSWER);
  });

  it('still leaves out the buttons that are controls, links and custom elements styled as buttons, and calls to action', () => {
    const controls = '<button>Add to basket</button><button aria-expanded="false" aria-controls="menu">Menu</button><button class="copy">Copy code block</button><button aria-expanded="false">Show more results</button>' +
      '<p><a class="button button--primary" href="/start">Get started today</a></p><quick-shop-opener class="button quick-shop"><span>Quick shop</span></quick-shop-opener>' +
      '<div class="cta-block"><h3>Ready to explore?</h3><a href="/book">Book a guided walk</a></div>';
    const md = markdownOf(`<main><h1>Tide pools</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}${controls}</main>`);
    for (const label of ['Add to basket', 'Menu', 'Copy code block', 'Show more results', 'Get started today', 'Quick shop', 'Book a guided walk']) expect(md).not.toContain(label);
  });
});
