import { describe, expect, it } from 'vitest';
import { metricsText, recordFallback, recordPage, recordRequest, recordTrendsCall, registerGaugeSource } from '@trawl/metrics';

describe('label vocabularies', () => {
  it('never lets a URL, host or unknown value into a label', async () => {
    recordRequest('/v1/runs/run_abc?x=https://evil.example/', 'GET', 200, 0.01);
    recordRequest('https://evil.example/v1/fetch', 'BREW', 999, 0.01);
    recordPage('https://evil.example/', 'completed', 'evil.example');
    recordFallback('evil.example');
    recordTrendsCall('https://evil.example/', 'evil.example');
    const text = await metricsText();
    expect(text).not.toContain('evil');
    expect(text).toContain('trawl_http_requests_total{route="other",method="GET",status="200"}');
    expect(text).toContain('trawl_http_requests_total{route="other",method="other",status="other"}');
    expect(text).toContain('trawl_pages_fetched_total{engine="other",outcome="completed",reason="other"}');
  });

  it('adds the per-process gauges of every source and takes the deployment-wide ones once', async () => {
    const a = registerGaugeSource(() => ({ browserPages: 2, browserBusy: 1, frontierQueued: 7, workersAlive: 3 }));
    const b = registerGaugeSource(async () => ({ browserPages: 4, frontierQueued: 7, workersAlive: 3 }));
    const c = registerGaugeSource(() => Promise.reject(new Error('store down')));
    try {
      const text = await metricsText();
      expect(text).toMatch(/^trawl_browser_pool_pages 6$/m);
      expect(text).toMatch(/^trawl_browser_pool_busy 1$/m);
      expect(text).toMatch(/^trawl_frontier_queued_pages 7$/m);
      expect(text).toMatch(/^trawl_workers_alive 3$/m);
    } finally {
      a();
      b();
      c();
    }
  });
});
