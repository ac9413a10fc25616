import { createTrawlClient, type TrawlClient } from '@trawl/client';
import type { CommandContext } from './command-spec.ts';
import { runCommandLine } from './commander-adapter.ts';
import { COMMANDS } from './commands/index.ts';
import { EXIT_CODES, exitCode, UsageError } from './exit-codes.ts';
import { writeOut } from './output.ts';
import { errorLine, reportError } from './report-error.ts';

/** `trawl …` (bin/trawl.js starts this through tsx). */
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
    (spec, args, options, globals) => {
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
  stderr.write(errorLine(err));
  code = reportError(err).code;
}
await writeOut(stdout, '');
process.exit(code);
