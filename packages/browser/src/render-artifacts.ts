import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ARTIFACT_CONTENT_TYPES } from '@trawl/contract';
import { MAX_SCREENSHOT_HEIGHT } from './browser-defaults.ts';
import type { FailureNote } from './diagnostics.ts';
import type { DriverSession } from './driver.ts';
import { sanitizeHar } from './har.ts';
import { snapshotPage } from './page-snapshot.ts';
import { driverErrorKind } from './playwright-adapter.ts';
import type { RenderArtifact, RenderRequest } from './types.ts';

/** Whether the render as a whole is lost (deadline, crash): then an artifact's failure is the render's. */
export type RenderLost = () => boolean;

/** A full-page PNG, or a soft failure when only the screenshot failed. */
export async function screenshotArtifact(session: DriverSession, end: number, lost: RenderLost): Promise<RenderArtifact | FailureNote> {
  try {
    const png = await session.screenshot(end - Date.now(), MAX_SCREENSHOT_HEIGHT);
    return { key: 'screenshot', contentType: ARTIFACT_CONTENT_TYPES.screenshot, body: png };
  } catch (err) {
    if (lost()) throw err;
    return { category: 'render', stage: 'artifacts', errorCode: 'screenshot_failed' };
  }
}

/** The page's HTML with the controls applied (shadow DOM, iframes, virtual scroll), taken once more if a script
 * navigation replaced the document under the first try. */
export async function pageSnapshot(
  session: DriverSession,
  opts: { controls: NonNullable<RenderRequest['controls']>; shadowKey: string | null; nonce: string; end: number },
  lost: RenderLost,
) {
  const vs = opts.controls.virtual_scroll;
  const take = () =>
    snapshotPage(session, {
      shadowKey: opts.shadowKey,
      processIframes: opts.controls.process_iframes === true,
      virtualScroll: vs ? { selector: vs.container_selector, count: vs.scroll_count } : null,
      nonce: opts.nonce,
      scrollDeadline: opts.end,
    });
  try {
    return await take();
  } catch (err) {
    if (lost() || driverErrorKind(err) !== 'other') throw err;
    await session.waitForLoad(opts.end - Date.now());
    return await take();
  }
}

/** The recorded HAR, cookies and secrets removed, or a soft failure. Read after the session closed (flushed). */
export async function harArtifact(harDir: string): Promise<RenderArtifact | FailureNote> {
  try {
    const har = await readFile(join(harDir, 'render.har'), 'utf8');
    return { key: 'har', contentType: ARTIFACT_CONTENT_TYPES.har, body: sanitizeHar(har) };
  } catch {
    return { category: 'render', stage: 'artifacts', errorCode: 'har_failed' };
  }
}

export function isArtifact(x: RenderArtifact | FailureNote): x is RenderArtifact {
  return 'key' in x;
}
