import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction } from '../src/index.ts';
import { redesign } from './helpers.ts';

// A text leaf decorated by an icon ("<li><svg/> 12.5 km</li>") is still a text leaf: restyled as a bare span in
// a row of same-class items, it is relocated to that span, not to the row wrapping all the
// facts (whose tag family happens to match the old li's).

const URL = 'https://trails.example/region/alps';
const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'trails',
    base_selector: '#trails > .trail',
    fields: [
      { name: 'name', selector: '.trail__name', type: 'text' },
      { name: 'distance', selector: '.fact--distance', type: 'text' },
      { name: 'climb', selector: '.fact--climb', type: 'text' },
      { name: 'duration', selector: '.fact--duration', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

const TRAILS = [
  { name: 'Lakeside Loop', distance: '12.5 km', climb: '640 m', duration: 'about 4 hours' },
  { name: 'Ridge Traverse', distance: '18.2 km', climb: '1,120 m', duration: 'about 7 hours' },
  { name: 'Valley Walk', distance: '6.4 km', climb: '210 m', duration: 'about 2 hours' },
  { name: 'Glacier View', distance: '9.8 km', climb: '880 m', duration: 'about 5 hours' },
  { name: 'Forest Circuit', distance: '7.1 km', climb: '330 m', duration: 'about 3 hours' },
  { name: 'Summit Push', distance: '14.9 km', climb: '1,540 m', duration: 'about 8 hours' },
];

const ICON = '<svg class="icon" aria-hidden="true" viewBox="0 0 16 16" width="16" height="16"><path d="M0 0h16v16H0z"/></svg>';

function page(list: string): string {
  return `<!doctype html><html><head><title>Trails</title></head><body><header><a href="/">Trails</a></header><main><h1>Alps</h1>${list}</main><footer><p>Trails Example</p></footer></body></html>`;
}

function v1(): string {
  const items = TRAILS.map(
    (t, i) => `<div class="trail"><h2 class="trail__name"><a href="/t/${i}">${t.name}</a></h2>
  <ul class="trail__facts">
    <li class="fact fact--distance">${ICON} ${t.distance}</li>
    <li class="fact fact--climb">${ICON} ${t.climb}</li>
    <li class="fact fact--duration">${ICON} ${t.duration}</li>
  </ul></div>`,
  );
  return page(`<div id="trails">${items.join('\n')}</div>`);
}

/** Generated class names; the facts become a row of same-class spans. */
function v2(): string {
  const items = TRAILS.map(
    (t, i) => `<article class="x7f"><div class="q2a"><h2 class="k9d"><a href="/t/${i}">${t.name}</a></h2>
  <div class="r4e"><span class="w1b">${t.distance}</span><span class="w1b">${t.climb}</span><span class="w1b">${t.duration}</span></div>
  </div></article>`,
  );
  return page(`<section class="p0z">${items.join('\n')}</section>`);
}

const { learned, extract } = redesign(compiled, URL, v1);

describe('a text leaf decorated by an icon', () => {
  it('is relocated to the bare span that replaced it, not to the row of facts around it', () => {
    const out = extract(v2());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(TRAILS);
  });
});
