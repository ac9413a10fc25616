import { createWriteStream, openSync } from 'node:fs';
import { once } from 'node:events';
import { UsageError } from './exit-codes.ts';

// C0 controls but tab and newline, DEL and C1: text from the web or the API never drives the terminal.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const C1_AND_DEL = /[\u007f-\u009f]/g;

/** Text for the terminal or a pipe: control characters removed (a page's text may hold ESC sequences). */
export function safeText(text: string): string {
  return text.replace(CONTROL, '');
}

/** JSON with DEL and C1 escaped too (JSON.stringify escapes only C0), so the output holds no control character. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(C1_AND_DEL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A line-oriented output (a file or stdout) that waits when the reader is slower than us. */
export interface LineSink {
  /** Where the lines go, for messages ("items.jsonl", "stdout"). */
  name: string;
  write(line: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens (and truncates) `path` at once, so a file that cannot be written is refused before any work starts. */
export function lineSink(path: string | undefined, stdout: NodeJS.WritableStream): LineSink {
  const stream: NodeJS.WritableStream = path === undefined ? stdout : createWriteStream(path, { fd: openOut(path) });
  let failed: Error | null = null;
  stream.on('error', (err: Error) => {
    failed = err;
  });
  return {
    name: path ?? 'stdout',
    async write(line) {
      if (failed) throw failed;
      if (!stream.write(`${line}\n`)) await once(stream, 'drain');
    },
    async close() {
      if (path === undefined) return;
      await new Promise<void>((resolve) => stream.end(() => resolve()));
      if (failed) throw failed;
    },
  };
}

function openOut(path: string): number {
  try {
    return openSync(path, 'w');
  } catch (err) {
    throw new UsageError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Writes to a stream and resolves once it was handed to the OS (stdout before process.exit). */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
