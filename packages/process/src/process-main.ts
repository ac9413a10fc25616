import { ConfigError, loadConfig, type TrawlConfig } from '@trawl/config';
import { DataDirLockedError } from '@trawl/kv';
import { RedisUnreachableError } from '@trawl/redis';
import { installFaultHandlers } from './fault-log.ts';
import { createLogger, type Logger } from './logger.ts';
import { MetricsPortError } from './metrics.ts';

/**
 * The shell of a Trawl process: parse the configuration (a bad value exits 2 with the message, no stack), create
 * the process's logger (`name` on every line), install the process-wide fault handlers (an unhandled rejection is
 * logged and the process carries on; an uncaught exception is logged and exits 1 for the supervisor to restart
 * it), start, and on SIGINT/SIGTERM stop once, gracefully, logging the shutdown, then exit.
 */
export async function runProcess(name: string, start: (config: TrawlConfig, log: Logger) => Promise<{ stop(): Promise<void> }>): Promise<void> {
  let running: { stop(): Promise<void> };
  let config: TrawlConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config, { name });
  installFaultHandlers(log);
  try {
    running = await start(config, log);
  } catch (err) {
    // What an operator can fix gets one clear line and exit 1, not a stack trace.
    const line = startupFailure(err, config);
    if (line === null) throw err;
    process.stderr.write(`${line}\n`);
    process.exit(1);
  }
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      const began = Date.now();
      log.info({ signal }, 'shutdown started');
      running.stop().then(
        () => {
          log.info({ duration_ms: Date.now() - began }, 'shutdown complete');
          process.exit(0);
        },
        (err: unknown) => {
          log.error({ err, duration_ms: Date.now() - began }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

/** The one-line reason for start-up failures an operator can fix, or null for anything else (a bug: stack). */
function startupFailure(err: unknown, config: TrawlConfig): string | null {
  if (err instanceof RedisUnreachableError || err instanceof MetricsPortError || err instanceof DataDirLockedError) return err.message;
  if ((err as NodeJS.ErrnoException)?.code === 'EADDRINUSE') return `port ${config.PORT} on ${config.HOST} is already in use: stop what holds it or set PORT`;
  if ((err as NodeJS.ErrnoException)?.code === 'EADDRNOTAVAIL') return `HOST ${config.HOST} is not an address of this machine`;
  return null;
}
