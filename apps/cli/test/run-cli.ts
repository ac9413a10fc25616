import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs the real `trawl` (bin/trawl.js, the root package's bin) as a child process: with pipes (not a terminal),
 * or inside a pseudo-terminal through util-linux `script`, which then carries stdin, stdout and stderr together.
 */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = 'bin/trawl.js';

export interface CliProcess {
  child: ChildProcess;
  /** Everything written so far (stdout then stderr kept apart; a terminal run has it all in stdout). */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr matches `re`; rejects if the process ends first or on timeout. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has exited, with its exit code (a signal death gives 128 + the signal number). */
  exit: Promise<number>;
  write(text: string): void;
}

/** The test runner's environment without TRAWL_* settings, so only what a test passes configures the CLI. */
function cleanEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('TRAWL_')) out[k] = v;
  return { ...out, ...env };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function spawnCli(args: string[], env: Record<string, string> = {}, opts: { tty?: boolean } = {}): CliProcess {
  const child = opts.tty
    ? // A wide terminal, so the whole progress line fits; -e: script exits with the CLI's exit status.
      spawn('script', ['-qfec', `stty cols 200 rows 50; exec node ${BIN} ${args.map(quote).join(' ')}`, '/dev/null'], {
        cwd: ROOT,
        env: cleanEnv(env),
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of waiters) w();
  };
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString('utf8');
    notify();
  });
  child.stderr!.on('data', (b: Buffer) => {
    err += b.toString('utf8');
    notify();
  });
  const exit = new Promise<number>((resolve) => {
    child.on('close', (code, signal) => {
      resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15));
      notify();
    });
  });
  let exited = false;
  void exit.then(() => (exited = true));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    write: (text) => child.stdin!.write(text),
    waitFor(re, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no output matching ${re} within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        const check = () => {
          if (re.test(out) || re.test(err)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          } else if (exited) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`exited before output matching ${re}\nstdout: ${out}\nstderr: ${err}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs `trawl args…` to its end (stdin closed, not a terminal). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = spawnCli(args, env);
  p.child.stdin!.end();
  const code = await p.exit;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** Any control character but newline (and tab): what a non-terminal output must never hold. */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
