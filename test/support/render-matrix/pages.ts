import { articleHtml, chrome, partHtml } from './text.ts';

/**
 * The render-fidelity matrix: local pages that draw their content in every way real sites do, each with the
 * marker words a whole render must contain. Served by site.ts; used by test/render/*.test.ts and
 * bench/render-fidelity.bench.ts.
 */
export interface MatrixPage {
  name: string;
  /** How the content arrives (shown in the benchmark table). */
  draws: string;
  /** Marker parts 1..parts make the whole content. */
  parts: number;
  /** Parts present in the HTML as served, which the light engine sees; the rest only exist after scripts ran. */
  servedParts: number;
  /** Text a reader must not be left with (placeholders, skeleton notes). */
  placeholders: string[];
  /** The whole content is in the document when the load event fires. */
  atLoad: boolean;
  /** The page keeps changing forever (clocks, carousels, polling, animation, held requests). */
  neverSettles: boolean;
  html: string;
}

/** The article's HTML, base64-encoded, so neither the light engine nor a DOM dump finds marker words in scripts. */
const encoded = (name: string, parts: number, from = 1) => JSON.stringify(Buffer.from(articleHtml(name, parts, from)).toString('base64'));
const encodedParts = (name: string, from: number, to: number) =>
  JSON.stringify(Array.from({ length: to - from + 1 }, (_, i) => Buffer.from(partHtml(name, from + i)).toString('base64')));

const RENDER = `function render(html){document.getElementById('root').innerHTML=html;}
function decode(s){return atob(s);}`;
const data = (name: string, parts: number, delay: number, from = 1) => `/matrix-data/${name}?from=${from}&parts=${parts}&delay=${delay}`;
const shell = (name: string, script: string, rootInner = '', id = 'root') =>
  chrome(`Harbour log ${name}`, `<main><div id="${id}">${rootInner}</div></main>\n<script>${RENDER}\n${script}</script>`);

function page(p: Partial<MatrixPage> & Pick<MatrixPage, 'name' | 'draws' | 'html'>): MatrixPage {
  return { parts: 4, servedParts: 0, placeholders: [], atLoad: false, neverSettles: false, ...p };
}

function timerPage(ms: number, id = 'root'): MatrixPage {
  const name = `timer-${ms}${id === 'root' ? '' : `-${id}`}`;
  return page({
    name,
    draws: `setTimeout ${ms} ms after parsing fills #${id}`,
    html: shell(name, `setTimeout(function(){document.getElementById('${id}').innerHTML=decode(${encoded(name, 4)});}, ${ms});`, '', id),
  });
}

export const MATRIX: MatrixPage[] = [
  page({
    name: 'static',
    draws: 'in the HTML, no scripts',
    servedParts: 4,
    atLoad: true,
    html: chrome('Harbour log static', `<main>${articleHtml('static', 4)}</main>`),
  }),
  page({
    name: 'static-scripts',
    draws: 'in the HTML, with analytics: a beacon, a 5 s heartbeat, a chat button after 2.5 s',
    servedParts: 4,
    atLoad: true,
    html: chrome(
      'Harbour log static-scripts',
      `<main>${articleHtml('static-scripts', 4)}</main>
<script>navigator.sendBeacon('/matrix-beacon', 'load');
setInterval(function(){navigator.sendBeacon('/matrix-beacon', 'beat');}, 5000);
setTimeout(function(){var b=document.createElement('button');b.textContent='Chat';document.body.appendChild(b);}, 2500);</script>`,
    ),
  }),
  timerPage(0),
  timerPage(150, 'app'),
  timerPage(400),
  timerPage(900),
  timerPage(1500),
  timerPage(3000),
  page({
    name: 'fetch-fast',
    draws: 'fetch (answered at once), then rendered',
    html: shell('fetch-fast', `fetch('${data('fetch-fast', 4, 0)}').then(function(r){return r.json();}).then(function(d){render(d.html);});`),
  }),
  page({
    name: 'fetch-slow',
    draws: 'fetch answered after 1.5 s, then rendered',
    html: shell('fetch-slow', `fetch('${data('fetch-slow', 4, 1500)}').then(function(r){return r.json();}).then(function(d){render(d.html);});`),
  }),
  page({
    name: 'xhr',
    draws: 'XMLHttpRequest answered after 400 ms',
    html: shell(
      'xhr',
      `var x=new XMLHttpRequest();x.open('GET','${data('xhr', 4, 400)}');x.onload=function(){render(JSON.parse(x.responseText).html);};x.send();`,
    ),
  }),
  page({
    name: 'fetch-timer',
    draws: 'fetch (200 ms), then a 300 ms timer, then rendered',
    html: shell(
      'fetch-timer',
      `fetch('${data('fetch-timer', 4, 200)}').then(function(r){return r.json();}).then(function(d){setTimeout(function(){render(d.html);}, 300);});`,
    ),
  }),
  page({
    name: 'raf-chain',
    draws: '40 chained animation frames, then rendered',
    html: shell('raf-chain', `var n=0;function step(){if(++n<40)requestAnimationFrame(step);else render(decode(${encoded('raf-chain', 4)}));}requestAnimationFrame(step);`),
  }),
  page({
    name: 'microtasks',
    draws: '5,000 awaited promises and 20 zero-delay timers, then rendered',
    html: shell(
      'microtasks',
      `(async function(){for(var i=0;i<5000;i++)await Promise.resolve(i);for(var j=0;j<20;j++)await new Promise(function(r){setTimeout(r,0);});render(decode(${encoded('microtasks', 4)}));})();`,
    ),
  }),
  page({
    name: 'message-channel',
    draws: 'rendered in 40 slices scheduled by MessageChannel (a scheduler, as React does)',
    parts: 40,
    html: shell(
      'message-channel',
      `var P=${encodedParts('message-channel', 1, 40)},i=0,ch=new MessageChannel();
document.getElementById('root').innerHTML='<article><h1>Harbour log: message-channel</h1></article>';
var art=document.querySelector('#root article');
ch.port1.onmessage=function(){var t=performance.now();while(performance.now()-t<4){}art.insertAdjacentHTML('beforeend',decode(P[i++]));if(i<P.length)ch.port2.postMessage(0);};
ch.port2.postMessage(0);`,
    ),
  }),
  page({
    name: 'skeleton',
    draws: 'grey skeleton blocks, replaced by data fetched in 700 ms',
    html: shell(
      'skeleton',
      `fetch('${data('skeleton', 4, 700)}').then(function(r){return r.json();}).then(function(d){render(d.html);});`,
      '<div class="skeleton"></div><div class="skeleton"></div><div class="skeleton"></div><div class="skeleton"></div>',
    ),
  }),
  page({
    name: 'spinner',
    draws: 'a heading and a spinner (no text); data fetched in 1.2 s',
    html: chrome(
      'Harbour log spinner',
      `<main><h2>Latest harbour reports</h2><div id="root"><div class="spinner" role="progressbar" aria-label="busy" style="width:40px;height:40px;border:4px solid #888;border-radius:50%"></div></div></main>
<script>fetch('${data('spinner', 4, 1200)}').then(function(r){return r.json();}).then(function(d){document.getElementById('root').innerHTML=d.html;});</script>`,
    ),
  }),
  page({
    name: 'placeholder',
    draws: '"Loading…" placeholder replaced after 900 ms',
    placeholders: ['Loading'],
    html: shell('placeholder', `setTimeout(function(){render(decode(${encoded('placeholder', 4)}));}, 900);`, '<p>Loading…</p>'),
  }),
  page({
    name: 'chunks-timer',
    draws: 'four chunks 250 ms apart (a timer chain)',
    html: shell(
      'chunks-timer',
      `var P=${encodedParts('chunks-timer', 1, 4)},i=0;
function next(){if(i===0)render('<article><h1>Harbour log: chunks-timer</h1></article>');document.querySelector('#root article').insertAdjacentHTML('beforeend',decode(P[i++]));if(i<P.length)setTimeout(next,250);}
setTimeout(next,100);`,
    ),
  }),
  page({
    name: 'chunks-stream',
    draws: 'one streamed response, four chunks 250 ms apart, appended as they arrive',
    html: shell(
      'chunks-stream',
      `fetch('/matrix-stream/chunks-stream').then(async function(r){var rd=r.body.getReader(),dec=new TextDecoder(),buf='';
render('<article><h1>Harbour log: chunks-stream</h1></article>');var art=document.querySelector('#root article');
for(;;){var x=await rd.read();if(x.done)break;buf+=dec.decode(x.value,{stream:true});var k;while((k=buf.indexOf('\\n'))>=0){art.insertAdjacentHTML('beforeend',buf.slice(0,k));buf=buf.slice(k+1);}}});`,
    ),
  }),
  page({
    name: 'stream-slow',
    // Gaps well inside the 1 s the text may hold still (settle-policy.ts holdMs) and the 2 s a silent stream still
    // counts as arriving (youngRequestMs), while the request is older than a long poll by its last chunk (2.1 s): at
    // 1.1 s, and then at 0.9 s, a test process busy enough to send a chunk late made a gap look like a feed gone quiet.
    draws: 'a heading; one streamed response, four chunks 0.7 s apart (older than a poll by the last one)',
    html: chrome(
      'Harbour log stream-slow',
      `<main><h1>Harbour live log</h1><article id="log"></article></main>
<script>fetch('/matrix-stream/stream-slow?gap=700').then(async function(r){var rd=r.body.getReader(),dec=new TextDecoder(),buf='';
var art=document.getElementById('log');
for(;;){var x=await rd.read();if(x.done)break;buf+=dec.decode(x.value,{stream:true});var k;while((k=buf.indexOf('\\n'))>=0){art.insertAdjacentHTML('beforeend',buf.slice(0,k));buf=buf.slice(k+1);}}});</script>`,
    ),
  }),
  page({
    name: 'lazy-io',
    draws: 'intro by script; three sections far below the fold, fetched when scrolled into view (IntersectionObserver)',
    html: shell(
      'lazy-io',
      `render('<article><h1>Harbour log: lazy-io</h1>'+decode(${encodedParts('lazy-io', 1, 1)}[0])+'<div class="spacer"></div><section data-part="2"></section><div class="spacer"></div><section data-part="3"></section><div class="spacer"></div><section data-part="4"></section></article>');
var io=new IntersectionObserver(function(es){es.forEach(function(e){if(!e.isIntersecting)return;io.unobserve(e.target);var n=e.target.getAttribute('data-part');
fetch('/matrix-data/lazy-io?from='+n+'&parts=1&delay=150&bare=1').then(function(r){return r.json();}).then(function(d){e.target.innerHTML=d.html;});});});
document.querySelectorAll('section[data-part]').forEach(function(s){io.observe(s);});`,
    ),
  }),
  page({
    name: 'lazy-scroll',
    draws: 'intro by script; more parts fetched when a scroll reaches the bottom (a scroll listener), three times',
    html: shell(
      'lazy-scroll',
      `render('<article><h1>Harbour log: lazy-scroll</h1>'+decode(${encodedParts('lazy-scroll', 1, 1)}[0])+'<div class="spacer"></div></article>');
var next=2,busy=false;window.addEventListener('scroll',function(){if(busy||next>4)return;if(window.scrollY+window.innerHeight<document.documentElement.scrollHeight-400)return;busy=true;
fetch('/matrix-data/lazy-scroll?from='+next+'&parts=1&delay=100&bare=1').then(function(r){return r.json();}).then(function(d){document.querySelector('#root article').insertAdjacentHTML('beforeend',d.html+'<div class="spacer"></div>');next++;busy=false;});});`,
    ),
  }),
  page({
    name: 'hydration',
    draws: 'served whole; hydration swaps in a skeleton, fetches (400 ms) and renders again',
    servedParts: 4,
    html: shell(
      'hydration',
      `document.getElementById('root').innerHTML='<div class="skeleton"></div><div class="skeleton"></div>';
fetch('${data('hydration', 4, 400)}').then(function(r){return r.json();}).then(function(d){render(d.html);});`,
      articleHtml('hydration', 4),
    ),
  }),
  page({
    name: 'worker',
    draws: 'a Web Worker builds the article and posts it after 300 ms',
    html: shell(
      'worker',
      `var src="var H='${JSON.parse(encoded('worker', 4))}';setTimeout(function(){postMessage(H);},300);";
var w=new Worker(URL.createObjectURL(new Blob([src],{type:'text/javascript'})));w.onmessage=function(e){render(decode(e.data));};`,
    ),
  }),
  page({
    name: 'late-section',
    draws: 'served article; an update section appended by a 600 ms timer',
    parts: 5,
    servedParts: 3,
    html: chrome(
      'Harbour log late-section',
      `<main>${articleHtml('late-section', 3)}<div id="later"></div></main>
<script>setTimeout(function(){document.getElementById('later').innerHTML='<section><h2>Update from the quay</h2>'+atob(${encodedParts('late-section', 4, 5)}[0])+atob(${encodedParts('late-section', 4, 5)}[1])+'</section>';}, 600);</script>`,
    ),
  }),
  page({
    name: 'selector-chunks',
    draws: 'the article element appears after 200 ms with one part; three more follow 300 ms apart',
    html: shell(
      'selector-chunks',
      `var P=${encodedParts('selector-chunks', 1, 4)},i=0;
function next(){if(i===0)render('<article><h1>Harbour log: selector-chunks</h1></article>');document.querySelector('#root article').insertAdjacentHTML('beforeend',decode(P[i++]));if(i<P.length)setTimeout(next,300);}
setTimeout(next,200);`,
    ),
  }),
  page({
    name: 'clock',
    draws: 'rendered by a 200 ms timer; a clock ticks every 100 ms forever',
    neverSettles: true,
    html: shell(
      'clock',
      `setTimeout(function(){render(decode(${encoded('clock', 4)}));}, 200);
var c=document.createElement('p');c.id='clock';document.body.appendChild(c);
setInterval(function(){c.textContent='Harbour clock '+new Date().toISOString().slice(11,22);}, 100);`,
    ),
  }),
  page({
    name: 'carousel-poll',
    draws: 'served article; a carousel swaps slides every 500 ms and a status polls every 300 ms, forever',
    servedParts: 4,
    atLoad: true,
    neverSettles: true,
    html: chrome(
      'Harbour log carousel-poll',
      `<main>${articleHtml('carousel-poll', 4)}<div class="carousel"><p class="slide">Ferry timetable</p></div><p id="status">Updated</p></main>
<script>var S=['Ferry timetable for the winter season','Crane bookings','Notices to mariners, updated weekly by the harbour office'],k=0;
setInterval(function(){document.querySelector('.slide').textContent=S[k++%S.length];}, 500);
var polls=0;setInterval(function(){fetch('/matrix-poll?t='+Date.now()).then(function(r){return r.json();}).then(function(d){document.getElementById('status').textContent='Updated '+(++polls)+' times, tide '+d.tide;});}, 300);</script>`,
    ),
  }),
  page({
    name: 'raf-forever',
    draws: 'fetched (100 ms) and rendered; an animation rewrites a counter on every frame, forever',
    neverSettles: true,
    html: shell(
      'raf-forever',
      `fetch('${data('raf-forever', 4, 100)}').then(function(r){return r.json();}).then(function(d){render(d.html);});
var f=document.createElement('span');document.body.appendChild(f);var n=0;(function loop(){f.textContent='frame '+(n++);requestAnimationFrame(loop);})();`,
    ),
  }),
  page({
    name: 'long-poll',
    draws: 'fetched (100 ms) and rendered; a long-poll request that never answers and an event stream stay open',
    neverSettles: true,
    html: shell(
      'long-poll',
      `fetch('${data('long-poll', 4, 100)}').then(function(r){return r.json();}).then(function(d){render(d.html);});
fetch('/matrix-hold').catch(function(){});var es=new EventSource('/matrix-sse');es.onmessage=function(){};`,
    ),
  }),
  thinPage('thin-timer', 1500, '<h1>Harbour news</h1>', 'a heading at load; the article by a 1.5 s timer into a plain div'),
  thinPage(
    'menu-timer',
    1200,
    '<div class="topbar">Harbour · Tides · Berths · Notices · Contact</div>',
    'a menu of plain divs at load; the article by a 1.2 s timer',
  ),
  thinPage(
    'cookie-timer',
    1300,
    '<div class="cookie-banner">We use cookies to remember your settings and to count visits. By continuing to browse the harbour pages you agree to this; you can change your mind at any time in the privacy settings linked at the foot of every page. <button>Accept</button></div>',
    'a long cookie note at load; the article by a 1.3 s timer',
  ),
  page({
    name: 'meta-refresh',
    draws: 'a "moved" note whose meta refresh (1 s) leads to the article',
    html: chrome('Harbour log meta-refresh', '<p>This page has moved.</p>', '<meta http-equiv="refresh" content="1; url=/matrix-refreshed/meta-refresh">'),
  }),
];

/**
 * Pages whose few words are there from the start (a heading, a menu of plain divs, a cookie note) while the article
 * arrives later by a timer: thin content is not the content. Found on pages outside the matrix (issue 10).
 */
function thinPage(name: string, ms: number, before: string, draws: string): MatrixPage {
  return page({
    name,
    draws,
    html: chrome(
      `Harbour log ${name}`,
      `${before}<div class="story"></div>
<script>setTimeout(function(){document.querySelector('.story').innerHTML=atob(${encoded(name, 4)});}, ${ms});</script>`,
    ),
  });
}

export const matrixPage = (name: string): MatrixPage | undefined => MATRIX.find((p) => p.name === name);

/**
 * The pages a browser-controlled crawl reads in the suite: one of each way of drawing that stresses the crawl's
 * browser path differently (the slowest timer, fetch and stream; the scroll scan; a worker and hydration; the
 * never-settling pages that hold requests or poll; thin content first; a meta refresh, which navigates). Browser
 * scrape reads every page of the matrix with the same render code, so the crawl reading all of them again cost a
 * minute of the suite and pinned nothing more.
 */
export const CRAWL_SAMPLE: MatrixPage[] = [
  'static',
  'timer-3000',
  'fetch-slow',
  'stream-slow',
  'lazy-scroll',
  'hydration',
  'worker',
  'long-poll',
  'raf-forever',
  'carousel-poll',
  'cookie-timer',
  'meta-refresh',
].map((name) => matrixPage(name) ?? assertNever(name));

function assertNever(name: string): never {
  throw new Error(`CRAWL_SAMPLE names ${name}, which is not a matrix page`);
}
