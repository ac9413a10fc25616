import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { CliModule, CommandSpec, OptionSpec } from './command-spec.ts';

/** Turns our command specs into a commander program (the only module importing commander). */

export interface GlobalOptions {
  base: string;
  key?: string;
}

export interface ProgramIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const DEFAULT_BASE = 'http://127.0.0.1:8080';

/**
 * Parses `argv` (the arguments after `trawl`) and runs the command it names. Resolves with the exit code the
 * command returned, 0 after --help, or `usageCode` for a usage mistake commander reported (one line on stderr).
 */
export async function runCommandLine(
  argv: string[],
  modules: CliModule[],
  run: (spec: CommandSpec, args: unknown[], options: Record<string, unknown>, globals: GlobalOptions) => Promise<number>,
  io: ProgramIo & { helpAfter: string; usageCode: number },
): Promise<number> {
  let code = 0;
  const program = new Command('trawl')
    .description('Trawl web data API from the command line: fetch pages, run crawls, search-trends jobs.')
    .addOption(new Option('--base <url>', 'API base URL').env('TRAWL_BASE').default(DEFAULT_BASE))
    .addOption(new Option('--key <key>', 'API key (Authorization: Bearer)').env('TRAWL_KEY'))
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .addHelpText('after', io.helpAfter);

  const add = (parent: Command, spec: CommandSpec) => {
    // .command() (not addCommand) so the subcommand inherits exitOverride and the output streams.
    const cmd = parent.command(spec.name).description(spec.description);
    for (const a of spec.args) cmd.argument(a.syntax, a.description);
    for (const o of spec.options) cmd.addOption(toOption(o));
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const { base, key, ...own } = self.optsWithGlobals() as Record<string, unknown>;
      code = await run(spec, self.processedArgs, own, { base: String(base), key: key as string | undefined });
    });
  };
  for (const m of modules) {
    if ('commands' in m) {
      const group = program.command(m.name).description(m.description);
      for (const o of m.options ?? []) group.addOption(toOption(o));
      for (const c of m.commands) add(group, c);
    } else add(program, m);
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : io.usageCode;
    throw err;
  }
  return code;
}

function toOption(spec: OptionSpec): Option {
  const o = new Option(spec.flags, spec.description);
  if (spec.choices) o.choices(spec.choices);
  if (spec.defaultValue !== undefined) o.default(spec.defaultValue);
  if (spec.env) o.env(spec.env);
  const parse = spec.parse;
  if (parse) {
    o.argParser((value: string) => {
      try {
        return parse(value);
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
    });
  }
  return o;
}
