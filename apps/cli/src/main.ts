import type { TrawlClient } from '@trawl/client';
import type { CommandContext } from './command-spec.ts';
import { runCommandLine } from './commander-adapter.ts';
import { COMMANDS } from './commands/index.ts';
import { EXIT_CODES, exitCode, UsageError } from './exit-codes.ts';
import { writeOut } from './output.ts';

/**
 * `trawl …` (bin/trawl.js runs its bundle, dist/cli.mjs). Only what `--help` needs loads at start: the API clients
 * (openapi-fetch, tRPC) and the progress bar (cli-progress) load when a command runs (README "Start-up").
 */
const HELP_AFTER = `
Environment: TRAWL_BASE (default for --base), TRAWL_KEY (default for --key).
Exit codes:
${Object.values(EXIT_CODES)
  .map((e) => `  ${String(e.code).padEnd(4)}${e.meaning}`)
  .join('\n')}
`;

const { stdout, stderr, stdin } = process;
// A reader that went away (`trawl crawl … | head`) ends the output, not with a stack trace.
stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(exitCode('ok'));
});
let code: number;
try {
  code = await runCommandLine(
    process.argv.slice(2),
    COMMANDS,
    async (spec, args, options, globals) => {
      const { createTrawlClient } = await import('@trawl/client');
      let client: TrawlClient | null = null;
      const ctx: CommandContext = {
        base: globals.base,
        stdout,
        stderr,
        stdin,
        client() {
          if (!globals.key) throw new UsageError('no API key: pass --key or set TRAWL_KEY');
          if (!/^https?:\/\/[^/]/i.test(globals.base)) throw new UsageError('--base (TRAWL_BASE) must be an http(s) URL');
          client ??= createTrawlClient({ baseUrl: globals.base, apiKey: globals.key });
          return client;
        },
      };
      return spec.run(args, options, ctx);
    },
    { stdout, stderr, helpAfter: HELP_AFTER, usageCode: exitCode('usage') },
  );
} catch (err) {
  // Telling the clients' errors apart needs their classes: loaded only when something failed.
  const { errorLine, reportError } = await import('./report-error.ts');
  stderr.write(errorLine(err));
  code = reportError(err).code;
}
await writeOut(stdout, '');
process.exit(code);
