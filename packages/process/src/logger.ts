import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { createRequire } from 'node:module';
import type { TrawlConfig } from '@trawl/config';

/**
 * The one logger of a Trawl process (gateway or worker), and the only module importing pino and pino-pretty.
 * JSON lines on stdout (level, time, pid, hostname, name, msg and fields), or human-readable lines with
 * LOG_PRETTY=1 or when stdout is a terminal (LOG_PRETTY=0 forces JSON). Packages below receive it as
 * `@trawl/contract`'s `Log`. What goes into a line is ids, counts, statuses, codes and registrable domains: an
 * error's message is scrubbed of URLs and bearer tokens (`err` fields), and no caller data is ever passed in.
 */
export type Logger = PinoLogger;

export interface LoggerTarget {
  /** The process on every line: `trawl-gateway`, `trawl-worker`. */
  name: string;
  /** Where lines go instead of stdout (tests): JSON unless LOG_PRETTY=1. */
  stream?: DestinationStream;
}

export function createLogger(config: Pick<TrawlConfig, 'LOG_LEVEL' | 'LOG_PRETTY'>, target: LoggerTarget): Logger {
  // Synchronous writes: the line of an uncaught exception is out before the process exits.
  const out = target.stream ?? pino.destination({ dest: 1, sync: true });
  const terminal = target.stream === undefined && process.stdout.isTTY === true;
  const options = { name: target.name, level: config.LOG_LEVEL, serializers: { err: errorFields } };
  return pino(options, prettyLines(config.LOG_PRETTY, terminal) ? prettyStream(out, terminal) : out);
}

/** LOG_PRETTY=1 or 0 decides; unset, a terminal gets human-readable lines and anything else JSON. */
export function prettyLines(setting: TrawlConfig['LOG_PRETTY'], terminal: boolean): boolean {
  return setting === undefined ? terminal : setting === '1';
}

/**
 * pino-pretty in this thread, formatting each line as it is logged (not a worker-thread transport): nothing is
 * left in a queue when the process exits, and the order of lines is the order of the calls.
 */
function prettyStream(out: DestinationStream, colorize: boolean): DestinationStream {
  // Required only here: a process logging JSON (the default off a terminal) never loads its ~30 modules.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname', singleLine: true });
  return { write: (line: string) => out.write(format(line)) };
}

// A URL of any scheme but file:// (our own stack frames), and bearer tokens.
const URL_LIKE = /\b(?!file:\/\/)[a-z][a-z0-9+.-]*:\/\/[^\s'"<>()]*/gi;
const BEARER = /\bbearer\s+\S+/gi;
const MAX_MESSAGE = 300;
const MAX_FRAMES = 8;

/** Error messages are ours or a library's, but some quote their input: URLs and tokens are cut out. */
export function scrubMessage(message: string): string {
  return message.replace(URL_LIKE, '<url>').replace(BEARER, 'Bearer <redacted>').slice(0, MAX_MESSAGE);
}

/** An error as logged: its name, code, scrubbed message and the first stack frames (never its other properties). */
function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { name: typeof err, message: scrubMessage(String(err)) };
  const code = (err as NodeJS.ErrnoException).code;
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((l) => l.startsWith('    at '))
    .slice(0, MAX_FRAMES)
    .map((l) => scrubMessage(l.trim()));
  return { name: err.name, message: scrubMessage(err.message), ...(typeof code === 'string' ? { code } : {}), stack: frames.join('\n') };
}
