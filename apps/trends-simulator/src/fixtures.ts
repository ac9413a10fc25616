import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The recorded Google Trends answers (apps/trends-simulator/recordings, a copy of shared/fixtures/google-trends) and what the
 * simulator derives from them: which widget token unlocks which recorded relatedsearches answer, and for which
 * widget request. Bodies are served byte for byte as recorded.
 */
export const DEFAULT_FIXTURES_DIR = new URL('../recordings/', import.meta.url);

export interface RelatedRecording {
  /** The RELATED_QUERIES widget's `request`, which relatedsearches must send back as `req`. */
  request: unknown;
  body: Buffer;
}

export interface Recordings {
  /** Explore answers by number of comparison items (1: pizza; 2: pizza and bagel). */
  explore: Map<number, Buffer>;
  /** relatedsearches answers by widget token. */
  related: Map<string, RelatedRecording>;
}

/** Both explore bodies start with `)]}'` and a newline; the widgets follow as JSON. */
function widgetsOf(explore: Buffer): { id: string; token?: string; request: unknown }[] {
  const text = explore.toString('utf8');
  return (JSON.parse(text.slice(text.indexOf('\n') + 1)) as { widgets: { id: string; token?: string; request: unknown }[] }).widgets;
}

export function loadRecordings(dir: URL | string = DEFAULT_FIXTURES_DIR): Recordings {
  const base = typeof dir === 'string' ? pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`) : dir;
  const file = (name: string) => readFileSync(new URL(name, base));
  const single = file('explore_pizza_single_2021.raw');
  const pair = file('explore_pizza_bagel_2021.raw');
  const pizza = file('relatedsearches_pizza_2021.raw');
  const bagel = file('relatedsearches_bagel_2021.raw');
  const related = new Map<string, RelatedRecording>();
  const bind = (explore: Buffer, id: string, body: Buffer) => {
    const w = widgetsOf(explore).find((x) => x.id === id);
    if (!w?.token) throw new Error(`recorded explore answer has no ${id} widget`);
    related.set(w.token, { request: w.request, body });
  };
  bind(single, 'RELATED_QUERIES', pizza);
  // The pizza widget of the two-keyword answer asks exactly what the one-keyword widget asks: same recorded answer.
  bind(pair, 'RELATED_QUERIES_0', pizza);
  bind(pair, 'RELATED_QUERIES_1', bagel);
  return { explore: new Map([[1, single], [2, pair]]), related };
}
