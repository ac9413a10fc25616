import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's Redocly configuration, which openapi-lint.test.ts and openapi-lint.e2e.test.ts hold it to. */
export const CONFIG = join(fileURLToPath(new URL('../../../', import.meta.url)), 'redocly.yaml');

/** Rules redocly.yaml lowers to a warning, each right below a comment saying why. */
export function justifiedWarnings(): Set<string> {
  const lines = readFileSync(CONFIG, 'utf8').split('\n');
  const rules = new Set<string>();
  lines.forEach((line, i) => {
    const m = /^ {2}([a-z0-9-]+): warn\s*$/.exec(line);
    if (m && /^ {2}#\s*\S/.test(lines[i - 1] ?? '')) rules.add(m[1]);
  });
  return rules;
}
