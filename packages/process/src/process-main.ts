import { ConfigError, loadConfig, type TrawlConfig } from '@trawl/config';
import { installFaultHandlers } from './fault-log.ts';

/**
 * The shell of a Trawl process: install the process-wide fault handlers (an unhandled rejection is logged and
 * the process carries on; an uncaught exception is logged and exits 1 for the supervisor to restart it), parse
 * the configuration (a bad value exits 2 with the message, no stack), start, and on SIGINT/SIGTERM stop once,
 * gracefully, then exit.
 */
export async function runProcess(start: (config: TrawlConfig) => Promise<{ stop(): Promise<void> }>): Promise<void> {
  installFaultHandlers();
  let running: { stop(): Promise<void> };
  try {
    running = await start(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
