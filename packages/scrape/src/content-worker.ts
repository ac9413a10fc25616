import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { UnsupportedContentTypeError, type ContentLimits } from '@trawl/content';
import { processContent, type ExtractionTask } from './content-step.ts';

/** A content thread: normalizes one body at a time, posted by the pool (content-lanes.ts). */
interface Task {
  body: Uint8Array;
  contentType: string | null;
  url: string;
  extraction?: ExtractionTask;
}

const { limits, lowPriority } = workerData as { limits: ContentLimits; lowPriority: boolean };

// The slow lane yields the CPU to everything else: on Linux the nice value is per thread, and this thread's id
// is the last part of /proc/thread-self. Elsewhere (or if refused) the lane runs at normal priority. Nice 5 weighs
// about a third of a normal thread: with the cores saturated by ordinary pages, big pages still progress (at nice
// 10 and over they starved into timeouts in the hostile suite), and ordinary pages keep most of the CPU.
const SLOW_LANE_NICE = 5;
if (lowPriority) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), SLOW_LANE_NICE);
  } catch {
    // not Linux: the lane still has threads of its own
  }
}

parentPort!.on('message', (t: Task) => {
  try {
    const body = Buffer.from(t.body.buffer, t.body.byteOffset, t.body.byteLength);
    parentPort!.postMessage({ ok: true, value: processContent({ body, contentType: t.contentType, url: t.url, limits, extraction: t.extraction }) });
  } catch (err) {
    const unsupported = err instanceof UnsupportedContentTypeError;
    parentPort!.postMessage({
      ok: false,
      unsupported,
      notText: unsupported && err.notText,
      contentType: unsupported ? err.contentType : null,
      message: unsupported ? 'unsupported content type' : String((err as Error)?.message ?? err),
    });
  }
});
parentPort!.postMessage({ ready: true });
