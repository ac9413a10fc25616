import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page, shopPageMarkdown } from './fixtures.ts';

/**
 * Failure class: on a product page, buyers' reviews or a seller's feedback outweigh the product's own short
 * details (name, price, condition, a few lines of description) and were returned instead of them. A section the
 * page heads "Customer reviews", "Seller feedback (7,310)", "Bewertungen"... goes on a page whose structured data
 * says it is one product, after the product's details. Our own small HTML, written for the test.
 */
const markdownOf = (body: string, jsonLd: object | null) => shopPageMarkdown('https://shop.example.com/item/4410', 'Brass ship bell', body, jsonLd);

const PRODUCT = { '@context': 'https://schema.org', '@type': 'Product', name: 'Brass ship bell', offers: { '@type': 'Offer', price: '89.00', priceCurrency: 'GBP' } };

const DETAILS = `<div class="panel"><h1>Brass ship bell, 6 inch</h1><div class="price">£89.00</div><div>Condition: New</div>
  <p>Cast brass bell with a rope lanyard and a wall bracket; rings clear across a garden.</p></div>`;

const REVIEWS = [
  'Arrived quickly and very well packed. The bell is heavier than I expected and the tone carries right down to the bottom of the garden where the chickens are.',
  'Bought this for my father who spent thirty years at sea. He rings it every evening at sundown now and the neighbours have started to join in with their own bells.',
  'The bracket screws were a little short for our old stone wall, but the seller sent longer ones the next day without being asked twice. Excellent service all round.',
  'Polished up beautifully with a little wadding. Sounds exactly like the bell on the ferry I took to school as a child, which is why I wanted one in the first place.',
].map((text, i) => `<li><div class="who">buyer${i} (12)</div><div>Past month</div><p>${text}</p></li>`).join('');

describe('reviews on a product page', () => {
  it("drops the buyers' reviews and keeps the product's details", () => {
    for (const heading of ['Customer reviews', 'Seller feedback (7,310)', 'Bewertungen', 'Top reviews from the United Kingdom']) {
      const md = markdownOf(`<main>${DETAILS}<div class="fb"><h2>${heading}</h2><ul>${REVIEWS}</ul></div></main>`, PRODUCT);
      expect(md, heading).toContain('Brass ship bell, 6 inch');
      expect(md, heading).toContain('£89.00');
      expect(md, heading).not.toContain('thirty years at sea');
    }
  });

  it('keeps reviews on a page that is not one product, and on a review that names a product as its subject', () => {
    const list = markdownOf(`<main>${DETAILS}<div class="fb"><h2>Customer reviews</h2><ul>${REVIEWS}</ul></div></main>`, null);
    expect(list).toContain('thirty years at sea');
    const review = { '@context': 'https://schema.org', '@type': 'Review', itemReviewed: { '@type': 'Product', name: 'Brass ship bell' } };
    const md = markdownOf(`<main>${DETAILS}<div class="fb"><h2>Reviews</h2><ul>${REVIEWS}</ul></div></main>`, review);
    expect(md).toContain('thirty years at sea');
  });

  // A shop's item page without structured data: one buy button says what it is. Its reviews widget puts the
  // heading and histogram in one column and the reviews in another, so no heading opens them as a section.
  const widget = (buttons: string) => `<div class="dp">${DETAILS}<p>Supplied with a braided rope, two fixing screws and a soft cloth.</p><form action="/cart">${buttons}</form>
    <div id="customer-reviews-widget"><div class="left"><h2>Customer reviews</h2><div>4.6 out of 5</div></div>
    <div class="right"><ul>${REVIEWS}</ul></div></div></div>`;

  it('drops a reviews block however long on a page with a buy button and no structured data', () => {
    for (const button of ['<button id="add-to-cart-button">Add</button>', '<input type="submit" value="Add to Basket">', '<button>In den Warenkorb</button>']) {
      const md = markdownOf(widget(button), null);
      expect(md, button).toContain('Brass ship bell, 6 inch');
      expect(md, button).not.toContain('thirty years at sea');
    }
  });

  it('keeps a long reviews block where nothing says the page is one product', () => {
    expect(markdownOf(widget('<button>Save for later</button>'), null)).toContain('thirty years at sea');
    // A buy button on every card is a category page, not one product.
    expect(markdownOf(widget('<button>Add to cart</button>'.repeat(6)), null)).toContain('thirty years at sea');
  });

  it("keeps a review article's text named as a review, buy button or not", () => {
    const head = '<title>Brass ship bell review</title><meta property="og:type" content="article">';
    const body = `<main><h1>Brass ship bell, reviewed</h1><p>Rated four stars by our editors, who rang it every evening for a month on a windy headland and in a small back garden before writing this.</p><div class="review-body">${REVIEWS.replace(/<[^>]+>/g, ' ')}</div><button>Buy now</button></main>`;
    const md = normalizeContent({ body: Buffer.from(page(body, head)), contentType: 'text/html; charset=utf-8', url: 'https://news.example.com/reviews/ship-bell' }).markdown;
    expect(md).toContain('thirty years at sea');
  });
});
