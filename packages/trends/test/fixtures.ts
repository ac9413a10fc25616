import { readFileSync } from 'node:fs';

/** The recorded Google Trends answers (apps/trends-simulator/recordings, a copy of shared/fixtures/google-trends). */
export const FIXTURES = new URL('../../../apps/trends-simulator/recordings/', import.meta.url);
export const recording = (name: string) => readFileSync(new URL(name, FIXTURES));

/** The recorded JSON of an answer, read independently of the code under test: everything after the first line. */
export function recordedJson(name: string): any {
  const text = recording(name).toString('utf8');
  return JSON.parse(text.slice(text.indexOf('\n') + 1));
}
