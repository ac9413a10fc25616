import { createHash } from 'node:crypto';
import type { Extractor } from './quality-extractors.ts';

/**
 * The page with every class token replaced by a hash of it, as a site built with CSS modules or styled components
 * shows itself to a reader of class names: what an extractor still gets right then rests on the page's structure,
 * text, roles and ids (which such sites keep: they are link targets and test hooks), not on its class words. A
 * regular expression over the source, which is enough for a probe: an attribute-like string inside a script may be
 * rewritten too, and no extractor reads those.
 */
export function hideClasses(html: string): string {
  return html.replace(/(\sclass\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi, (_match, attribute: string, double?: string, single?: string) => {
    const tokens = (double ?? single ?? '').split(/\s+/).filter((token) => token !== '');
    return `${attribute}"${tokens.map(hashed).join(' ')}"`;
  });
}

const hashed = (token: string) => `h${createHash('sha1').update(token).digest('hex').slice(0, 7)}`;

/** The extractor run on pages whose class names are hidden. */
export function onHiddenClasses(extractor: Extractor): Extractor {
  return { name: `${extractor.name} (classes hidden)`, ext: extractor.ext, run: (html, url) => extractor.run(hideClasses(html), url) };
}
