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
  /** Runs the command; resolves with the exit code. Errors thrown here are printed as one line by the runner. */
  run(args: unknown[], options: Record<string, unknown>, ctx: CommandContext): Promise<number>;
}

export interface GroupSpec {
  name: string;
  description: string;
  commands: CommandSpec[];
}

export type CliModule = CommandSpec | GroupSpec;

export interface CommandContext {
  /** The API client for --base/--key (TRAWL_BASE/TRAWL_KEY); a UsageError when there is no key. */
  client(): TrawlClient;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}
