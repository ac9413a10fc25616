/**
 * What a package below the process layer logs through. The process (`@trawl/process`) hands down its pino logger,
 * which has this shape; packages never import pino. Fields are ids, counts, statuses and codes: never a URL, a
 * header, a token, a body or a selector (README "Logging").
 */
export interface Log {
  debug(fields: Record<string, unknown>, msg: string): void;
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

const quiet = (): void => undefined;

/** Logs nothing: for parts run without a process around them (unit tests, benchmarks). */
export const SILENT_LOG: Log = { debug: quiet, info: quiet, warn: quiet, error: quiet };
