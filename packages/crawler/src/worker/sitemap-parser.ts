import { Readable } from 'node:stream';

/**
 * The only module importing `sitemap` (8.0.3: Node ≥ 14, a maintained parser on sax that reads a stream and
 * fetches nothing itself, so our light engine does every fetch under the SSRF guard and the size limit). What one
 * sitemap document lists: other sitemaps (an index) or pages (a urlset, or a plain-text sitemap: one URL a line).
 * Loaded with the first XML sitemap, not at start-up (a process that reads none never pays for sax and its parser).
 */
let sitemapModule: Promise<typeof import('sitemap')> | undefined;

export async function sitemapEntries(doc: Buffer, max: number): Promise<{ kind: 'index' | 'urlset'; urls: string[] }> {
  const head = doc.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('<')) {
    const urls = doc.toString('utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => /^https?:\/\//i.test(l));
    return { kind: 'urlset', urls: urls.slice(0, max) };
  }
  const index = /<(?:[\w-]+:)?sitemapindex[\s>]/.test(head);
  const { ErrorLevel, XMLToSitemapIndexStream, XMLToSitemapItemStream } = await (sitemapModule ??= import('sitemap'));
  const parser = index
    ? new XMLToSitemapIndexStream({ level: ErrorLevel.SILENT, logger: false })
    : new XMLToSitemapItemStream({ level: ErrorLevel.SILENT, logger: false });
  const urls: string[] = [];
  await new Promise<void>((resolve) => {
    const source = Readable.from([doc]);
    const end = () => {
      source.destroy();
      parser.destroy();
      resolve();
    };
    parser.on('data', (entry: { url?: unknown }) => {
      if (typeof entry.url === 'string' && urls.length < max) urls.push(entry.url);
      if (urls.length >= max) end();
    });
    // A broken document gives what was read before the break.
    parser.on('end', end).on('error', end).on('close', end);
    source.pipe(parser);
  });
  return { kind: index ? 'index' : 'urlset', urls };
}
