import type { TrawlClient } from '@trawl/client';

/**
 * Our description of a command, independent of the argument parser: commander-adapter.ts turns these into
 * commander commands. A group (e.g. `trawl admin …`) is a named list of commands.
 */
export interface OptionSpec {
  /** Flags as in `--max-pages <n>`, `--json`. */
  flags: string;
  description: string;
  defaultValue?: string | boolean;
  choices?: readonly string[];
  /** Converts and checks the value; throws UsageError with what is wrong. */
  parse?: (value: string) => unknown;
  /** An environment variable that gives the value when the flag is absent. */
  env?: string;
}

export interface ArgumentSpec {
  /** `<url>` or `<urls...>` */
  syntax: string;
  description: string;
}

export interface CommandSpec {
  name: string;
  description: string;
  args: ArgumentSpec[];
  options: OptionSpec[];
  /**
   * Runs the command; resolves with the exit code. `options` holds its own options and its group's. Errors thrown
   * here are printed as one line by the runner.
   */
  run(args: unknown[], options: Record<string, unknown>, ctx: CommandContext): Promise<number>;
}

export interface GroupSpec {
  name: string;
  description: string;
  /** Options of the group (e.g. a token every subcommand needs), given before or after the subcommand's name. */
  options?: OptionSpec[];
  commands: CommandSpec[];
}

export type CliModule = CommandSpec | GroupSpec;

export interface CommandContext {
  /** --base (TRAWL_BASE), for clients other than the API client. */
  base: string;
  /** The API client for --base/--key (TRAWL_BASE/TRAWL_KEY); a UsageError when there is no key. */
  client(): TrawlClient;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}
