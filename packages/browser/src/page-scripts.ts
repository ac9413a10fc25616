import { readFileSync } from 'node:fs';
import type { PageScript } from './driver.ts';

/**
 * Scripts that run inside the page. They live in page-scripts/*.js as plain text and are read once: a function
 * written in a .ts file would reach the browser as transpiled source, which may call helpers (tsx's __name) that
 * do not exist there.
 */
function load(name: string): PageScript {
  return Object.freeze({ source: readFileSync(new URL(`./page-scripts/${name}`, import.meta.url), 'utf8').trim() });
}

export const SNAPSHOT_SCRIPT: PageScript = load('snapshot.js');
export const SETTLE_SCRIPT: PageScript = load('settle.js');
const SHADOW_CAPTURE: PageScript = load('shadow-capture.js');

/** The init script that keeps closed shadow roots reachable under `key`. */
export function shadowCaptureInit(key: string): string {
  return `(${SHADOW_CAPTURE.source})(${JSON.stringify(key)});`;
}

export interface SnapshotArg {
  shadowKey: string | null;
  frames: unknown[];
  placeholder: string;
  bodyOnly: boolean;
  virtualScroll: { selector: string; count: number; budgetMs: number } | null;
}

export interface SnapshotResult {
  html: string;
  virtualScroll: { found: boolean; scrolls: number; rows: number } | null;
}
