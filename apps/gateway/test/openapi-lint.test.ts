import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG, justifiedWarnings } from './redocly-config.ts';

// The lint itself (@redocly/cli's process, on the document a gateway serves): openapi-lint.e2e.test.ts.
describe('Redocly lint of the public OpenAPI document', () => {
  it('has every rule on, and a reason for each one lowered to a warning', () => {
    const config = readFileSync(CONFIG, 'utf8');
    expect(config).toMatch(/^extends:\n {2}- all$/m);
    const lowered = [...config.matchAll(/^ {2}([a-z0-9-]+): (warn|off)\s*$/gm)].map((m) => m[1]);
    expect([...justifiedWarnings()].sort()).toEqual(lowered.sort());
    expect(lowered.length).toBeGreaterThan(0);
  });
});
