import type { FailureNote } from './diagnostics.ts';
import type { DriverSession, PageScript } from './driver.ts';
import type { NetworkActivity } from './network-activity.ts';
import { WAIT_FOR_SELECTOR_SCRIPT } from './page-scripts.ts';
import { settlePage, type SettleResult } from './settle.ts';
import type { ControlsReport, FailureStage, RenderRequest } from './types.ts';

/** The document never finished loading: a note on a page delivered as it stands, the failure of one showing nothing. */
export const LOAD_TIMEOUT: FailureNote = Object.freeze({ category: 'timeout', stage: 'load', errorCode: 'load_timeout' });

/** A selector that does not parse as CSS must not be waited for (it would only ever time out). */
const SELECTOR_IS_VALID: PageScript = Object.freeze({
  source: '(selector) => { try { document.createDocumentFragment().querySelector(selector); return true; } catch (e) { return false; } }',
});

export interface ControlsOutcome {
  report: ControlsReport;
  /** What went wrong without costing the page (a selector that never came, a load that never ended). */
  soft: FailureNote[];
  settled: SettleResult;
}

/**
 * After navigation: wait for the caller's selector if any, then let the page (or the content under the selector)
 * settle. `onStage` keeps the caller's failure stage current.
 */
export async function waitForContent(
  session: DriverSession,
  net: NetworkActivity,
  opts: { controls: NonNullable<RenderRequest['controls']>; activityKey: string; settleMaxMs: number; waitEnd: number; onStage: (s: FailureStage) => void },
): Promise<ControlsOutcome> {
  const { controls, activityKey, waitEnd } = opts;
  const report: ControlsReport = {};
  const soft: FailureNote[] = [];
  let settleSince = Date.now();
  let settleSelector: string | null = null;
  if (controls.wait_for_selector !== undefined) {
    const stage = 'wait_for_selector';
    opts.onStage(stage);
    const valid = await session.mainFrame().evaluate<boolean>(SELECTOR_IS_VALID, controls.wait_for_selector);
    if (!valid) {
      report.wait_for_selector = 'invalid_selector';
      soft.push({ category: 'render', stage, errorCode: 'invalid_selector' });
    } else {
      const found = await waitForSelector(session, activityKey, controls.wait_for_selector, waitEnd - Date.now());
      report.wait_for_selector = found ? 'found' : 'timeout';
      if (!found) soft.push({ category: 'timeout', stage, errorCode: 'wait_for_selector_timeout' });
      else {
        // Then the content under it settles too (a chunked article is not cut at its first chunk).
        settleSelector = controls.wait_for_selector;
        settleSince = Date.now();
      }
    }
  }
  opts.onStage('load');
  const settled = await settlePage(session, net, {
    key: activityKey,
    selector: settleSelector,
    since: settleSince,
    maxMs: opts.settleMaxMs,
    hardEnd: waitEnd,
    frames: controls.process_iframes === true,
  });
  if (settled.loadIncomplete) soft.push(LOAD_TIMEOUT);
  return { report, soft, settled };
}

/**
 * True once the selector matches, false when it did not within timeoutMs. Two waits race: ours in the page, told
 * by a MutationObserver the moment the element is added, and Playwright's, which also looks inside open shadow
 * roots but polls at growing intervals (up to half a second late).
 */
function waitForSelector(session: DriverSession, key: string, selector: string, timeoutMs: number): Promise<boolean> {
  const own = session.mainFrame().evaluate<boolean>(WAIT_FOR_SELECTOR_SCRIPT, { key, selector, timeoutMs }).catch(() => false);
  const theirs = session.waitForSelector(selector, timeoutMs);
  return new Promise((resolve, reject) => {
    let misses = 0;
    const miss = () => void (++misses === 2 && resolve(false));
    void own.then((found) => (found ? resolve(true) : miss()));
    theirs.then((found) => (found ? resolve(true) : miss()), reject);
  });
}
