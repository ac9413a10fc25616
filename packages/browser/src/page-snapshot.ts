import { MAX_FRAME_DEPTH, MAX_INLINED_FRAMES } from './browser-defaults.ts';
import type { DriverFrame, DriverHandle, DriverSession } from './driver.ts';
import { SNAPSHOT_SCRIPT, type ReadyState, type SnapshotArg, type SnapshotResult } from './page-scripts.ts';

export interface SnapshotOptions {
  /** Closed-root map name (shadow-capture.js) when flatten_shadow_dom is on; null otherwise. */
  shadowKey: string | null;
  processIframes: boolean;
  virtualScroll: { selector: string; count: number } | null;
  /** Per-render nonce: frame placeholders carry it, so page content can never fake one. */
  nonce: string;
  /** Epoch ms by which the virtual scroll must have stopped. */
  scrollDeadline: number;
}

export interface Snapshot {
  html: string;
  virtualScroll: SnapshotResult['virtualScroll'];
  iframesInlined: number;
  /** The top document's readyState when it was read. */
  readyState: ReadyState;
}

interface FrameNode {
  frame: DriverFrame;
  /** Child frames in the order their elements were handed to the snapshot script. */
  children: FrameNode[];
  elements: (DriverHandle | null)[];
}

/**
 * Serializes the rendered page. With process_iframes, each frame (cross-origin and out-of-process ones too) is
 * serialized in its own document by the same script, and its body is put where its <iframe> element stood,
 * inside <div data-trawl-iframe>; frames that failed to load (an error page) or were refused leave the div empty.
 */
export async function snapshotPage(session: DriverSession, opts: SnapshotOptions): Promise<Snapshot> {
  const placeholder = `trawl-frame-${opts.nonce}-`;
  const budget = { frames: MAX_INLINED_FRAMES };
  const tree = await frameTree(session.mainFrame(), opts.processIframes ? MAX_FRAME_DEPTH : 0, budget);

  const results = new Map<FrameNode, string>();
  let virtualScroll: Snapshot['virtualScroll'] = null;
  let readyState: ReadyState = 'complete';
  const jobs: Promise<void>[] = [];
  const visit = (node: FrameNode, isMain: boolean) => {
    const arg: SnapshotArg = {
      shadowKey: opts.shadowKey,
      frames: node.elements,
      placeholder,
      bodyOnly: !isMain,
      virtualScroll:
        isMain && opts.virtualScroll
          ? { ...opts.virtualScroll, budgetMs: Math.max(0, opts.scrollDeadline - Date.now()) }
          : null,
    };
    jobs.push(
      (async () => {
        if (!isMain && !inlinable(node.frame.url())) {
          results.set(node, '');
          return;
        }
        try {
          const r = await node.frame.evaluate<SnapshotResult>(SNAPSHOT_SCRIPT, arg);
          results.set(node, r.html);
          if (isMain) {
            virtualScroll = r.virtualScroll;
            readyState = r.readyState;
          }
        } catch (err) {
          // A child frame that navigated or went away mid-snapshot is left out; the page itself must succeed.
          if (isMain) throw err;
          results.set(node, '');
        }
      })(),
    );
    for (const child of node.children) visit(child, false);
  };
  visit(tree, true);
  await Promise.all(jobs);

  let inlined = 0;
  const assemble = (node: FrameNode): string =>
    (results.get(node) ?? '').replace(new RegExp(`<!--${placeholder}(\\d+)-->`, 'g'), (_m, index: string) => {
      const child = node.children[Number(index)];
      if (child === undefined) return '<div data-trawl-iframe=""></div>';
      inlined++;
      return `<div data-trawl-iframe="">${assemble(child)}</div>`;
    });
  return { html: assemble(tree), virtualScroll, iframesInlined: inlined, readyState };
}

async function frameTree(frame: DriverFrame, depth: number, budget: { frames: number }): Promise<FrameNode> {
  const node: FrameNode = { frame, children: [], elements: [] };
  if (depth <= 0) return node;
  for (const child of frame.children()) {
    if (budget.frames <= 0) break;
    let element: DriverHandle | null = null;
    try {
      element = await child.elementInParent();
    } catch {
      element = null;
    }
    if (element === null) continue;
    budget.frames--;
    node.elements.push(element);
    node.children.push(await frameTree(child, depth - 1, budget));
  }
  return node;
}

/** Chromium's error pages (a refused or failed frame) hold browser text, never the site's content. */
function inlinable(url: string): boolean {
  return !url.startsWith('chrome-error:') && !url.startsWith('chrome:');
}
