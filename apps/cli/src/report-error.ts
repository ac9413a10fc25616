import { adminErrorOf, isAdminUnreachable } from '@trawl/admin/client';
import { TrawlApiError, TrawlNetworkError } from '@trawl/client';
import { exitCode, UsageError } from './exit-codes.ts';
import { safeText } from './output.ts';

/** One line for stderr and the exit code of a failure. */
export function reportError(err: unknown): { line: string; code: number } {
  if (err instanceof TrawlApiError) {
    const request = err.requestId ? ` (request ${err.requestId})` : '';
    const retry = err.retryAfterS !== null ? `, retry after ${err.retryAfterS} s` : '';
    const field = typeof err.details.field === 'string' ? ` [${err.details.field}]` : '';
    return { line: `error: ${err.code}: ${err.message}${field}${retry}${request}`, code: exitCode('api_error') };
  }
  if (err instanceof TrawlNetworkError) return { line: `error: ${err.message}`, code: exitCode('unreachable') };
  const admin = adminErrorOf(err);
  if (admin) return { line: `error: ${admin.code}: ${admin.message}`, code: exitCode('api_error') };
  if (isAdminUnreachable(err)) return { line: 'error: the admin API could not be reached at --base', code: exitCode('unreachable') };
  if (err instanceof UsageError) return { line: `error: ${err.message}`, code: exitCode('usage') };
  return { line: `error: ${err instanceof Error ? err.message : String(err)}`, code: exitCode('api_error') };
}

export function errorLine(err: unknown): string {
  // Messages may quote what the API or a page said: never a control character on the terminal.
  return `${safeText(reportError(err).line).replace(/[\n\t]+/g, ' ')}\n`;
}
