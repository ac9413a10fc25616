import type { Diagnostics } from '@trawl/contract';

/** Diagnostics of a page that never touched a browser and used no adaptive extraction. */
export function lightDiagnostics(quality: { score: number; confidence: 'low' | 'medium' | 'high' }): Diagnostics {
  return {
    adaptive_extraction: { enabled: false, used: false, action: 'none', confidence: 0 },
    browser_debug: { enabled: false, network_event_count: 0, console_message_count: 0 },
    browser_failure: {
      present: false,
      category: 'none',
      stage: 'none',
      attempt_count: 0,
      browser_lease_acquired: null,
      error_code: null,
    },
    content_quality: { score: round(quality.score), confidence: quality.confidence },
  };
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
