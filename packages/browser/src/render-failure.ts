import { netErrorCode, type FailureNote } from './diagnostics.ts';
import type { MainRefusal } from './navigation-guard.ts';
import { driverErrorKind, netErrorName } from './playwright-adapter.ts';
import type { FailureStage, RenderBlockReason } from './types.ts';

/** Why a render delivered nothing: the block reason, whether a retry may help, and the note for diagnostics. */
export interface RenderFailure {
  blockReason: RenderBlockReason;
  retryable: boolean;
  failure: FailureNote;
  /** The page or the browser died: the pool replaces the browser. */
  crashed: boolean;
}

/** What a render knew when it failed: where it was, and what its hooks saw. */
export interface FailureContext {
  stage: FailureStage;
  deadlineHit: boolean;
  crashed: boolean;
  browserConnected: boolean;
  mainRefusal: MainRefusal | null;
}

const failed = (blockReason: RenderBlockReason, retryable: boolean, failure: FailureNote, crashed = false): RenderFailure => ({
  blockReason,
  retryable,
  failure,
  crashed,
});

/** Sorts an error thrown during a render into our vocabulary; never passes browser text on. */
export function classifyRenderError(err: unknown, c: FailureContext, deadlineError: boolean): RenderFailure {
  const { stage } = c;
  if (c.deadlineHit || deadlineError) return failed('timeout', true, { category: 'timeout', stage, errorCode: 'deadline_exceeded' });
  if (c.crashed || !c.browserConnected) {
    return failed('render_failed', true, { category: 'crash', stage, errorCode: c.browserConnected ? 'page_crashed' : 'browser_crashed' }, true);
  }
  if (stage === 'navigate' && c.mainRefusal !== null) return refusalFailure(c.mainRefusal);
  const kind = driverErrorKind(err);
  if (kind === 'closed') return failed('render_failed', true, { category: 'crash', stage, errorCode: 'browser_crashed' }, true);
  if (kind === 'timeout') return failed('timeout', true, { category: 'timeout', stage, errorCode: stage === 'navigate' ? 'navigation_timeout' : 'deadline_exceeded' });
  if (stage === 'navigate' && kind === 'net') {
    const code = netErrorCode(netErrorName(err));
    if (code === 'redirect_limit') return failed('redirect_limit', false, { category: 'navigation', stage, errorCode: code });
    if (code === 'blocked_target') return failed('blocked_target', false, { category: 'blocked', stage, errorCode: code });
    return failed('network_error', true, { category: 'navigation', stage, errorCode: code });
  }
  if (stage === 'context') return failed('render_failed', true, { category: 'crash', stage, errorCode: 'context_failed' });
  return failed('render_failed', true, { category: 'render', stage, errorCode: 'render_failed' });
}

/** The top document was refused by our navigation guard (SSRF, DNS, redirects). */
export function refusalFailure(refusal: MainRefusal): RenderFailure {
  switch (refusal) {
    case 'blocked_target':
      return failed('blocked_target', false, { category: 'blocked', stage: 'navigate', errorCode: 'blocked_target' });
    case 'dns_failed':
      return failed('network_error', true, { category: 'navigation', stage: 'navigate', errorCode: 'dns_failed' });
    case 'redirect_limit':
      return failed('redirect_limit', false, { category: 'navigation', stage: 'navigate', errorCode: 'redirect_limit' });
    case 'out_of_scope_redirect':
      return failed('out_of_scope_redirect', false, { category: 'navigation', stage: 'navigate', errorCode: 'out_of_scope_redirect' });
  }
}
