import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { screenBody, UnsupportedContentTypeError, type ContentLimits } from '@trawl/content';
import { ContentTimeoutError, type ContentInput, type ContentProcessor } from './content-errors.ts';
import type { ContentResult, ExtractionTask } from './content-step.ts';

export interface LanesOptions {
  /** Threads for ordinary pages. */
  threads: number;
  /** Threads for large bodies (slow jobs), run at a lower OS priority; 0 sends every page to the ordinary lane. */
  slowThreads: number;
  /** Bodies of at least this many bytes go to the slow lane. */
  slowBytes: number;
  limits: ContentLimits;
  /** Heap cap of one content thread: a page that needs more fails alone instead of taking the process down. */
  threadHeapMb: number;
}

interface Job {
  /** The caller's body (the caller holds it until the page settles anyway): kept so the page can be re-sent. */
  body: Buffer;
  contentType: string | null;
  extraction: ExtractionTask | undefined;
  url: string;
  state: 'queued' | 'sent' | 'done';
  timer: NodeJS.Timeout | null;
  resolve(v: ContentResult): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  /** Pages sent to this thread, in its order: the first is the one it is working on. */
  jobs: Job[];
}

interface Lane {
  slots: Slot[];
  /** Threads the lane runs once started; the slow lane starts with its first page. */
  size: number;
  queue: Job[];
  lowPriority: boolean;
  /** Pages a thread may hold at once (PIPELINE, or 1 in the slow lane). */
  depth: number;
}

// An ordinary thread holds its page and up to three next ones: with one page at a time it sat idle for every
// round trip through the event loop (a quarter less throughput, measured). Ordinary pages are small, so those
// waiting behind a stopped page lose little (they are re-sent). A slow-lane thread holds one page only, so a
// slow page never waits inside a thread where its deadline cannot stop it.
const PIPELINE = 4;

// In a bundle (scripts/build.mjs defines it): the file URL of the content thread's entry built with that bundle.
// Not defined when this module runs as TypeScript (tsx, vitest).
declare const TRAWL_CONTENT_WORKER_URL: string | undefined;

/**
 * A thread's entry: the bundle's own when it runs from one (about a tenth of the start of loading the TypeScript
 * through tsx, and no esbuild service per thread), otherwise the boot file that loads content-worker.ts through
 * tsx. Looked up at each start, so a bundle whose entry was removed meanwhile (dist/ cleaned) still starts threads.
 */
function threadEntry(): URL {
  if (typeof TRAWL_CONTENT_WORKER_URL === 'string') {
    const bundled = new URL(TRAWL_CONTENT_WORKER_URL);
    if (existsSync(bundled)) return bundled;
  }
  return new URL('./content-worker-boot.mjs', import.meta.url);
}

type Reply = { ok?: boolean; value?: ContentResult; unsupported?: boolean; notText?: boolean; contentType?: string | null; message?: string; ready?: boolean };

/**
 * Content threads in two lanes, each lane with its own queue. Every page runs under its caller's deadline: still
 * queued at the deadline, it is dropped; still running, its thread is terminated and replaced, and the page that
 * waited behind it in that thread goes back to the front of the queue, so nobody else's page dies with it. Large
 * bodies (the ones that can take seconds: deep, huge or hostile documents) have their own lane at a low OS
 * priority, so they never queue ahead of ordinary pages nor take much CPU from them.
 */
export function laneContentProcessor(opts: LanesOptions): ContentProcessor {
  let closed = false;
  // A lane's threads start with its first page: a process that never makes content (a gateway answering reads
  // after a restart, a worker with nothing to crawl) never pays ~0.3-1.5 s of CPU per thread at start-up, when it
  // competes with loading the process itself. The first page waits for a thread's boot (README "Content threads").
  const makeLane = (threads: number, lowPriority: boolean): Lane => ({ slots: [], size: threads, queue: [], lowPriority, depth: lowPriority ? 1 : PIPELINE });
  function startLane(lane: Lane): void {
    while (lane.slots.length < lane.size) lane.slots.push(spawn(lane));
  }

  function spawn(lane: Lane): Slot {
    const worker = new Worker(threadEntry(), {
      workerData: { limits: opts.limits, lowPriority: lane.lowPriority },
      resourceLimits: { maxOldGenerationSizeMb: opts.threadHeapMb },
    });
    worker.unref();
    const slot: Slot = { worker, jobs: [] };
    worker.on('message', (m: Reply) => {
      if (m.ready) return;
      const job = slot.jobs.shift();
      if (!job) return;
      settle(job, () =>
        m.ok
          ? job.resolve(m.value!)
          : job.reject(m.unsupported ? new UnsupportedContentTypeError(m.contentType ?? null, m.notText === true) : new Error(`content thread: ${m.message}`)),
      );
      dispatch(lane);
    });
    // A thread that died (out of memory, a crash) fails the page it was working on; the one behind it is re-sent.
    const died = (err: Error) => {
      if (closed || !lane.slots.includes(slot)) return;
      const job = slot.jobs.shift();
      if (job) settle(job, () => job.reject(err));
      replace(lane, slot);
    };
    worker.on('error', (err) => died(err));
    worker.on('exit', (code) => died(new Error(`content thread exited with ${code}`)));
    return slot;
  }

  /** A new thread in the slot's place; the pages the old one still held (not the one it failed) queue first. */
  function replace(lane: Lane, slot: Slot): void {
    lane.slots[lane.slots.indexOf(slot)] = spawn(lane); // before the old one's exit event, which is then ignored
    void slot.worker.terminate();
    const resend = slot.jobs.filter((j) => j.state === 'sent');
    slot.jobs = [];
    for (const j of resend) j.state = 'queued';
    lane.queue.unshift(...resend);
    dispatch(lane);
  }

  function settle(job: Job, act: () => void): void {
    if (job.state === 'done') return;
    job.state = 'done';
    if (job.timer) clearTimeout(job.timer);
    act();
  }

  function dispatch(lane: Lane): void {
    if (lane.queue.length > 0 && !closed) startLane(lane);
    while (lane.queue.length > 0) {
      // The least busy thread with room: an idle one first.
      let slot: Slot | null = null;
      for (const s of lane.slots) if (s.jobs.length < lane.depth && (slot === null || s.jobs.length < slot.jobs.length)) slot = s;
      if (slot === null) return;
      const job = lane.queue.shift()!;
      job.state = 'sent';
      slot.jobs.push(job);
      // Copied into a buffer we own so it can be transferred (the body may be a view into a shared pool).
      const body = new Uint8Array(job.body);
      slot.worker.postMessage({ body, contentType: job.contentType, url: job.url, extraction: job.extraction }, [body.buffer as ArrayBuffer]);
    }
  }

  /**
   * The deadline passed: a queued page leaves the queue; the page a thread is working on has its thread replaced;
   * a page waiting inside a thread behind another is answered now and its result ignored when it comes.
   */
  function expire(lane: Lane, job: Job): void {
    if (job.state === 'queued') lane.queue.splice(lane.queue.indexOf(job), 1);
    settle(job, () => job.reject(new ContentTimeoutError()));
    const slot = lane.slots.find((s) => s.jobs[0] === job);
    if (slot) {
      slot.jobs.shift();
      replace(lane, slot);
    }
  }

  const fast = makeLane(Math.max(1, opts.threads), false);
  const slow = opts.slowThreads > 0 ? makeLane(opts.slowThreads, true) : fast;

  return {
    normalize(input: ContentInput) {
      if (closed) return Promise.reject(new Error('content pool is closed'));
      const lane = input.body.length >= opts.slowBytes ? slow : fast;
      const deadline = input.deadline ?? Number.POSITIVE_INFINITY;
      if (deadline <= Date.now()) return Promise.reject(new ContentTimeoutError());
      try {
        // A body that is not text is refused here, not after queueing for a thread behind large pages.
        screenBody(input.body, input.contentType);
      } catch (err) {
        return Promise.reject(err as Error);
      }
      return new Promise<ContentResult>((resolve, reject) => {
        const job: Job = { body: input.body, contentType: input.contentType, url: input.url, extraction: input.extraction, state: 'queued', timer: null, resolve, reject };
        if (Number.isFinite(deadline)) job.timer = setTimeout(() => expire(lane, job), Math.max(0, deadline - Date.now()));
        lane.queue.push(job);
        dispatch(lane);
      });
    },
    async close() {
      closed = true;
      const lanes = slow === fast ? [fast] : [fast, slow];
      const gone = () => new Error('content pool is closed');
      for (const lane of lanes) {
        for (const job of lane.queue.splice(0)) settle(job, () => job.reject(gone()));
        for (const slot of lane.slots) for (const job of slot.jobs.splice(0)) settle(job, () => job.reject(gone()));
      }
      await Promise.all(lanes.flatMap((l) => l.slots.map((s) => s.worker.terminate())));
    },
  };
}
