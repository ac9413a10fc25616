/** What each exit status of `trawl` means (README "CLI" lists the same table). */
export const EXIT_CODES = {
  ok: { code: 0, meaning: 'success (a crawl that completed, a trends job that completed)' },
  api_error: { code: 1, meaning: 'the API answered an error: its code and message are printed on one line' },
  usage: { code: 2, meaning: 'bad arguments or flags, no API key, an unreadable --extraction or unwritable --out file' },
  job_failed: { code: 3, meaning: 'the crawl ended failed, budget_exhausted or expired; a trends job failed' },
  unreachable: { code: 4, meaning: 'the API could not be reached at --base' },
  interrupted: { code: 130, meaning: 'Ctrl-C during a crawl: left running, or paused when answered y' },
} as const satisfies Record<string, { code: number; meaning: string }>;

export type ExitReason = keyof typeof EXIT_CODES;
export const exitCode = (reason: ExitReason): number => EXIT_CODES[reason].code;

/** A mistake of the caller found before calling the API (printed as one line, exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
