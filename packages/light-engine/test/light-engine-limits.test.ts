import { describe, expect, it } from 'vitest';
import { createLightEngine } from '../src/index.ts';
import { testGuard, within } from './test-setup.ts';

// Bodies, deadlines and answers of the fixture site: light-engine-limits.e2e.test.ts.
describe('light engine responses', () => {
  it('rejects a proxy URL got-scraping cannot use', () => {
    expect(() => createLightEngine({ guard: testGuard(), proxyUrl: 'socks5://127.0.0.1:1080' })).toThrow('http://');
  });

  it('rejects a request URL that is not absolute', async () => {
    const engine = createLightEngine({ guard: testGuard() });
    try {
      await expect(engine.fetch({ url: '/relative', deadline: within(1_000) })).rejects.toThrow(TypeError);
    } finally {
      await engine.close();
    }
  });
});
