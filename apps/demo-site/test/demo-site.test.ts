import { describe, expect, it } from 'vitest';
import { DEMO_SITE_DIR, sitePath } from '../src/demo-site.ts';

// The site served on a port: demo-site.e2e.test.ts.
describe('the demo site', () => {
  it('never maps a path outside its directory', () => {
    expect(sitePath(DEMO_SITE_DIR, '/')).toBe(`${DEMO_SITE_DIR}index.html`);
    expect(sitePath(DEMO_SITE_DIR, '/journal/')).toBe(`${DEMO_SITE_DIR}journal/index.html`);
    for (const p of ['/../package.json', '/../src/main.ts', '/..%2f..%2fetc/passwd', '/journal/../../package.json']) {
      expect(sitePath(DEMO_SITE_DIR, p), p).toBeNull();
    }
  });
});
