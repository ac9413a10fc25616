import { describe, expect, it } from 'vitest';
import { shopPageMarkdown } from './fixtures.ts';

/**
 * Failure class: a shop's product page keeps the product's description in a slide-out sheet (an <aside> inside a
 * role=dialog, opened by a "Description" button), and the sheet went as furniture with the description in it. The
 * text the page's structured data declares as the product's description is content wherever the layout puts it,
 * and so is what holds it. Our own small HTML, written for the test.
 */
const markdownOf = (body: string, jsonLd: object | null) =>
  shopPageMarkdown('https://shop.example.com/products/trail-runner-jacket', 'Trail runner jacket', body, jsonLd);

const DESCRIPTION = [
  'Built for wet mornings on the fell, the Trail Runner jacket keeps the rain out without turning every climb into a sauna.',
  'Its three-layer shell breathes through long efforts, folds into its own chest pocket and weighs less than an apple.',
];
const FEATURES = ['Taped seams', 'Adjustable hood with a wired peak', 'Reflective trims front and back', '100% recycled polyester'];
const PRODUCT = (description: string) => ({ '@context': 'https://schema.org', '@type': 'Product', name: 'Trail runner jacket', description, offers: { '@type': 'Offer', price: '120.00', priceCurrency: 'GBP' } });

const sheet = (title: string, inner: string) => `<button class="accordion-title"><h5>${title}</h5></button>
  <div class="sheet" role="dialog" aria-modal="false"><aside class="sheet-aside"><div class="sheet-header"><h5>${title}</h5>
  <button aria-label="Close">×</button></div><div class="sheet-content">${inner}</div></aside></div>`;

// The rest of the page outweighs the sheets (otherwise they would be kept as most of it, dialogs or not).
const STORY = Array.from({ length: 6 }, (_, i) =>
  `<p>Chapter ${i + 1} of how the workshop began: two friends, a borrowed sewing machine and a winter of testing prototypes on the hills above the town, wet through and laughing, until the seams finally held.</p>`,
).join('');
const buyBox = `<h1>Trail runner jacket</h1><div class="price">£120</div><p>Slim fit</p><form action="/cart"><button>Add to bag</button></form>`;
const descriptionSheet = sheet('Description', `<p><strong>LIGHT RAIN, HEAVY MILES</strong></p>${DESCRIPTION.map((p) => `<p>${p}</p>`).join('')}<ul>${FEATURES.map((f) => `<li>${f}</li>`).join('')}</ul>`);
const newsletter = sheet('Join the club', '<p>Sign up for early access to new drops, member prices and free returns on every order you place with us.</p>');

describe('a product description the structured data declares', () => {
  it('keeps the description from a slide-out sheet the page marks as a dialog', () => {
    const md = markdownOf(`<main>${buyBox}${descriptionSheet}${newsletter}<section>${STORY}</section></main>`, PRODUCT(`LIGHT RAIN, HEAVY MILES\n${DESCRIPTION.join(' ')}\n${FEATURES.join('\n')}`));
    expect(md).toContain('Trail runner jacket');
    expect(md).toContain('keeps the rain out');
    expect(md).toContain('Reflective trims front and back');
    // Another sheet the description is not in is still a dialog.
    expect(md).not.toContain('early access to new drops');
  });

  it('keeps the description when the structured data writes it as HTML', () => {
    const html = `<p><strong>LIGHT RAIN, HEAVY MILES</strong></p>${DESCRIPTION.map((p) => `<p>${p}</p>`).join('')}<ul>${FEATURES.map((f) => `<li>${f}</li>`).join('')}</ul>`;
    expect(markdownOf(`<main>${buyBox}${descriptionSheet}${newsletter}<section>${STORY}</section></main>`, PRODUCT(html))).toContain('keeps the rain out');
  });

  it('drops the sheet when nothing declares its text: without structured data, or with a description that is not in it', () => {
    expect(markdownOf(`<main>${buyBox}${descriptionSheet}${newsletter}<section>${STORY}</section></main>`, null)).not.toContain('keeps the rain out');
    const other = PRODUCT('A warm fleece for cold evenings at camp, with deep pockets, a high collar and a hem that stays down when the wind picks up on the ridge.');
    expect(markdownOf(`<main>${buyBox}${descriptionSheet}${newsletter}<section>${STORY}</section></main>`, other)).not.toContain('keeps the rain out');
  });
});
