import { readFileSync } from 'node:fs';
import { UsageError } from './exit-codes.ts';

/** Option value parsers: each throws UsageError saying what the value must be. */

export function integer(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || n < min || n > max) throw new UsageError(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

/** A JSON file's content. */
export function jsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not JSON`);
  }
}
