import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Node versions package.json promises (`engines.node`, repeated in the README) are ones every locked
 * dependency accepts: `npm ci` on any of them prints no EBADENGINE warning. A dependency that declares a newer
 * Node fails this test until it is pinned, overridden (package.json `overrides`) or the promise is changed.
 */
const ROOT = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');

describe('the Node versions this repository promises', () => {
  const promised = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;

  it('are accepted by every locked package that names the Node versions it runs on', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: unknown } }> };
    const refused: string[] = [];
    let checked = 0;
    for (const [path, pkg] of Object.entries(lock.packages)) {
      const range = pkg.engines?.node;
      // npm checks only string ranges (an old array form is ignored by npm too); "" is the repository itself.
      if (path === '' || typeof range !== 'string') continue;
      checked++;
      if (!semver.subset(promised, range)) refused.push(`${path.replace(/^.*node_modules\//, '')}: ${range}`);
    }
    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('include the Node this suite runs on, and are the ones the README states', () => {
    expect(semver.satisfies(process.version, promised)).toBe(true);
    expect(read('README.md')).toContain(`\`${promised}\``);
  });
});
