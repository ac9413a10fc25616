import { createHash } from 'node:crypto';
import type { Extractor } from './quality-extractors.ts';

/**
 * The page with every class and id token replaced by a hash of it, as a site built with CSS modules or styled
 * components shows itself to a reader of names: what an extractor still gets right then rests on the page's
 * structure and text, not on its class words. A regular expression over the source, which is enough for a probe:
 * an attribute-like string inside a script may be rewritten too, and no extractor reads those.
 */
export function hideNames(html: string): string {
  return html.replace(/(\s(?:class|id)\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi, (_match, attribute: string, double?: string, single?: string) => {
    const tokens = (double ?? single ?? '').split(/\s+/).filter((token) => token !== '');
    return `${attribute}"${tokens.map(hashed).join(' ')}"`;
  });
}

const hashed = (token: string) => `h${createHash('sha1').update(token).digest('hex').slice(0, 7)}`;

/** The extractor run on pages whose names are hidden. */
export function onHiddenNames(extractor: Extractor): Extractor {
  return { name: `${extractor.name} (names hidden)`, ext: extractor.ext, run: (html, url) => extractor.run(hideNames(html), url) };
}
