import { createInterface } from 'node:readline';

/**
 * Ctrl-C while following a crawl. The first SIGINT resolves `interrupted`; a repeat within DUPLICATE_MS is the
 * same keypress delivered twice (npx forwards the terminal's SIGINT to its child, which already got it) and is
 * ignored; a later one while no question is open ends the process at once (130).
 */
const DUPLICATE_MS = 500;

export interface Interrupts {
  interrupted: Promise<void>;
  /** While a question is open, a later SIGINT answers it "no" instead of ending the process. */
  onLaterSignal(fn: (() => void) | null): void;
  dispose(): void;
}

export function watchInterrupts(exitCode: number): Interrupts {
  let first: number | null = null;
  let later: (() => void) | null = null;
  let resolve!: () => void;
  const interrupted = new Promise<void>((r) => (resolve = r));
  const handler = () => {
    const at = Date.now();
    if (first === null) {
      first = at;
      resolve();
    } else if (at - first < DUPLICATE_MS) {
      return;
    } else if (later) later();
    else process.exit(exitCode);
  };
  process.on('SIGINT', handler);
  return {
    interrupted,
    onLaterSignal: (fn) => (later = fn),
    dispose: () => process.off('SIGINT', handler),
  };
}

/** Asks a yes/no question on the terminal; only "y" or "yes" is yes (Enter, Ctrl-C, Ctrl-D: no). */
export function askYesNo(stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream, prompt: string, interrupts: Interrupts): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: stdin, output: stderr, terminal: true });
    let settled = false;
    const done = (yes: boolean) => {
      if (settled) return;
      settled = true;
      interrupts.onLaterSignal(null);
      rl.close();
      stdin.pause();
      resolve(yes);
    };
    interrupts.onLaterSignal(() => {
      stderr.write('\n');
      done(false);
    });
    // In raw mode Ctrl-C reaches readline as a key, not as a signal.
    rl.on('SIGINT', () => {
      stderr.write('\n');
      done(false);
    });
    rl.on('close', () => done(false));
    rl.question(prompt, (answer) => done(/^\s*y(es)?\s*$/i.test(answer)));
  });
}
