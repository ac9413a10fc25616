import { readFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { deflateSync } from 'node:zlib';
import iconv from 'iconv-lite';

export { startFailingProxy, startForwardProxy, type FailingProxyMode, type TestProxy } from './fixture-proxies.ts';

/**
 * The local web site every test crawls. One node:http server on 127.0.0.1 answers for any Host: tests reach it
 * as site.test, a.example.test, news.example.co.uk ... through TRAWL_HOST_RESOLVER_RULES (`MAP *.test 127.0.0.1`),
 * never through /etc/hosts or DNS. Pages:
 *   /  /article  /bench-20kb  /js-shell (+ /static/app.js)  /js-worse (a script leaves less than was served)  /plain.txt  /data.json  /image.png  /echo-host
 *   /echo-headers (the request headers as JSON)
 *   /redirect/:n (n 302s ending at /article)  /loop  /redirect-to?url=  /status/:code
 *   /endless (chunked, never ends)  /big-declared (Content-Length 20 MiB)  /slow?ms=
 *   /charset/sjis-header  /charset/sjis-meta  /charset/1252-header  /charset/1252-meta
 */
export interface FixtureSite {
  port: number;
  /** `http://<host>:<port>` */
  origin(host: string): string;
  /** Requests seen, optionally only for one path (query ignored) and/or one Host (port ignored). */
  hits(path?: string, host?: string): number;
  close(): Promise<void>;
}

const pageFile = (name: string) => readFileSync(new URL(`./fixture-pages/${name}`, import.meta.url));
const HTML = 'text/html; charset=utf-8';

export async function startFixtureSite(): Promise<FixtureSite> {
  const pages = {
    article: pageFile('article.html'),
    jsShell: pageFile('js-shell.html'),
    appJs: pageFile('app.js'),
    bench: benchPage(),
    png: pngImage(24, 16),
  };
  const hitCounts = new Map<string, number>();
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    const key = `${host}\n${url.pathname}`;
    hitCounts.set(key, (hitCounts.get(key) ?? 0) + 1);
    route(req, res, url, host, pages);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fixture site has no TCP address');
  const port = address.port;
  return {
    port,
    origin: (host) => `http://${host}:${port}`,
    hits(path, host) {
      let n = 0;
      for (const [key, count] of hitCounts) {
        const [h, p] = key.split('\n');
        if ((path === undefined || p === path) && (host === undefined || h === host.toLowerCase())) n += count;
      }
      return n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Pages = { article: Buffer; jsShell: Buffer; appJs: Buffer; bench: Buffer; png: Buffer };

function route(req: IncomingMessage, res: ServerResponse, url: URL, host: string, pages: Pages): void {
  const path = url.pathname;
  let m: RegExpMatchArray | null;
  switch (path) {
    case '/':
      return send(res, 200, HTML, homePage());
    case '/article':
      return send(res, 200, HTML, pages.article);
    case '/bench-20kb':
      return send(res, 200, HTML, pages.bench);
    case '/js-shell':
      return send(res, 200, HTML, pages.jsShell);
    case '/js-worse':
      return send(res, 200, HTML, jsWorsePage());
    case '/static/app.js':
      return send(res, 200, 'text/javascript; charset=utf-8', pages.appJs);
    case '/plain.txt':
      return send(res, 200, 'text/plain; charset=utf-8', PLAIN_TEXT);
    case '/data.json':
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(DATA_JSON, null, 2));
    case '/image.png':
      return send(res, 200, 'image/png', pages.png);
    case '/echo-host':
      return send(res, 200, HTML, echoHostPage(req.headers.host ?? host));
    case '/echo-headers':
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(req.headers));
    case '/loop':
      return redirect(res, '/loop');
    case '/redirect-to': {
      const target = url.searchParams.get('url');
      return target ? redirect(res, target) : send(res, 400, 'text/plain', 'missing url parameter\n');
    }
    case '/endless':
      return endless(res);
    case '/big-declared':
      return bigDeclared(res);
    case '/slow': {
      const ms = Math.min(Math.max(Number(url.searchParams.get('ms') ?? 1000) || 0, 0), 120_000);
      const timer = setTimeout(() => send(res, 200, HTML, simplePage('Slow page', `This page waited ${ms} ms before answering.`)), ms);
      res.on('close', () => clearTimeout(timer));
      return;
    }
  }
  if ((m = path.match(/^\/redirect\/(\d{1,3})$/))) {
    const n = Number(m[1]);
    return redirect(res, n > 1 ? `/redirect/${n - 1}` : '/article');
  }
  if ((m = path.match(/^\/status\/(\d{3})$/))) return status(res, Number(m[1]));
  if ((m = path.match(/^\/charset\/(sjis|1252)-(header|meta)$/))) {
    const { body, contentType } = charsetPage(m[1] as 'sjis' | '1252', m[2] as 'header' | 'meta');
    return send(res, 200, contentType, body);
  }
  send(res, 404, HTML, simplePage('Not found', 'There is no page at this address.'));
}

function send(res: ServerResponse, code: number, contentType: string, body: string | Buffer): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(code, { 'content-type': contentType, 'content-length': buf.length });
  res.end(buf);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'content-type': HTML, 'content-length': 0 });
  res.end();
}

function status(res: ServerResponse, code: number): void {
  if (code < 200 || code > 599) return send(res, 400, 'text/plain', 'status must be 200-599\n');
  if (code === 204 || code === 304) return void res.writeHead(code).end();
  const reason = STATUS_CODES[code] ?? 'Unknown';
  send(res, code, HTML, simplePage(`${code} ${reason}`, `The fixture site answered ${code} ${reason} on purpose.`));
}

/** Chunked HTML that never ends: writes as fast as the client reads, stops when it hangs up. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': HTML });
  const chunk = Buffer.from('<p>This paragraph repeats for ever, because the page never ends.</p>\n'.repeat(1000));
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** Declares 20 MiB, sends a first piece, then waits: a client should give up on the header alone. */
function bigDeclared(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': HTML, 'content-length': 20 * 1024 * 1024 });
  res.write(Buffer.alloc(64 * 1024, 'x'));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function simplePage(title: string, text: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>\n`;
}

/** A short served article (below the quality bar) whose script then replaces it with less: the render is worse. */
function jsWorsePage(): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Quay notes</title></head>
<body><main><article><h1>Quay notes</h1><p>The north quay reopens on Monday after the winter repairs; berths one to four
take visiting boats again, and the water point by the crane works once more.</p></article></main>
<script>document.querySelector('article').textContent = 'Notes moved.';</script></body></html>\n`;
}

function homePage(): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Coastline Review</title></head>
<body><header><a href="/">Coastline Review</a></header><main><h1>Coastline Review</h1>
<p>News and data about harbours, fisheries and the weather along the coast.</p>
<ul><li><a href="/article">Tidal energy in small harbours</a></li><li><a href="/bench-20kb">Harbour almanac</a></li>
<li><a href="/plain.txt">Tide notes (text)</a></li><li><a href="/data.json">Harbour data (JSON)</a></li></ul></main></body></html>\n`;
}

function echoHostPage(hostHeader: string): string {
  const h = escapeHtml(hostHeader);
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Echo host: ${h}</title></head>
<body><main><article><h1>Echo host</h1>
<p>This request reached the fixture site with the Host header <strong>${h}</strong>.</p>
<p>Tests use this page to check that several hostnames are mapped to the same local server by the host resolver rules, and that
the Host header the client sent is the one the user asked for, not the address it connected to.</p>
</article></main></body></html>\n`;
}

/** About 20 KiB of article HTML with exactly five links: the light-engine benchmark page. */
function benchPage(): Buffer {
  const links = ['/article', '/plain.txt', '/data.json', '/echo-host', '/bench-20kb?page=2'];
  const sentences = [
    'The harbour almanac lists every berth, crane and slipway along the inner quay, with the hours each is open.',
    'Spring tides run fastest in the week after a full or new moon, and the pilots adjust their schedules accordingly.',
    'Fuel is available at the north quay from seven in the morning until six in the evening, except on public holidays.',
    'Visiting yachts should call the harbour office on channel twelve before entering, giving their length and draught.',
    'The lifeboat station holds an open day each summer, with demonstrations of the all-weather boat and the inshore boat.',
  ];
  const head = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Harbour Almanac</title></head>\n<body><main><article><h1>Harbour Almanac</h1>\n<nav>${links
    .map((l, i) => `<a href="${l}">Section ${i + 1}</a>`)
    .join(' ')}</nav>\n`;
  const tail = '</article></main></body></html>\n';
  let body = '';
  for (let i = 0; Buffer.byteLength(head + body + tail) < 20 * 1024 - 200; i++) {
    if (i % 6 === 0) body += `<h2>Part ${i / 6 + 1}</h2>\n`;
    body += `<p>${sentences[i % sentences.length]} ${sentences[(i + 2) % sentences.length]}</p>\n`;
  }
  return Buffer.from(head + body + tail);
}

const SJIS_TEXT = {
  title: '港町の潮力発電：五年間の記録',
  paragraphs: [
    '五つの港町が小型の潮力タービンを防波堤に設置してから、五年が経ちました。',
    '発電量は予想を上回りましたが、海藻の付着やシールの故障で停止する日もありました。',
    '港の作業員は「船のエンジンと同じように手入れをすれば、よく働いてくれる」と話しています。',
  ],
};

const CP1252_TEXT = {
  title: 'Café society: the “harbour kitchen” revival',
  paragraphs: [
    'The new café on the quay serves crème brûlée, a naïve but honest bouillabaisse and coffee at €2.50.',
    '“We wanted somewhere the crews would actually use,” says the owner — a former trawlerman’s daughter.',
    'Her résumé includes ten years at sea; the menu’s “catch of the day” is exactly that.',
  ],
};

function charsetPage(kind: 'sjis' | '1252', where: 'header' | 'meta'): { body: Buffer; contentType: string } {
  const encoding = kind === 'sjis' ? 'Shift_JIS' : 'windows-1252';
  const text = kind === 'sjis' ? SJIS_TEXT : CP1252_TEXT;
  const meta =
    where === 'header'
      ? ''
      : kind === 'sjis'
        ? `<meta charset="${encoding}">`
        : `<meta http-equiv="Content-Type" content="text/html; charset=${encoding}">`;
  const html = `<!DOCTYPE html>\n<html lang="${kind === 'sjis' ? 'ja' : 'en'}"><head>${meta}<title>${text.title}</title></head>
<body><main><article><h1>${text.title}</h1>\n${text.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}\n</article></main></body></html>\n`;
  return {
    body: iconv.encode(html, encoding),
    contentType: where === 'header' ? `text/html; charset=${encoding}` : 'text/html',
  };
}

const PLAIN_TEXT = `Tide notes for the inner harbour

High water today is at 06:42 and 19:05, low water at 00:31 and 12:54.
The west channel buoy has been moved twenty metres to the north; see the notice to mariners.
Crane bookings for next week open on Friday at noon.
`;

const DATA_JSON = {
  harbour: 'Kelby Haven',
  updated: '2024-03-18T09:30:00Z',
  berths: [
    { id: 3, vessel: 'Aurora', departs: '2024-03-21' },
    { id: 5, vessel: null, note: 'ferry maintenance' },
  ],
  tides: { high: ['06:42', '19:05'], low: ['00:31', '12:54'] },
};

/** A small RGB gradient PNG, built by hand so the bytes are a real, decodable image. */
function pngImage(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = Math.round((x / (width - 1)) * 255);
      raw[row + 2 + x * 3] = Math.round((y / (height - 1)) * 255);
      raw[row + 3 + x * 3] = 160;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter method variants, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
