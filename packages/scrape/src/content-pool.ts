import { Worker } from 'node:worker_threads';
import { normalizeContent, UnsupportedContentTypeError, type NormalizedContent } from '@trawl/content';

export interface ContentInput {
  body: Buffer;
  contentType: string | null;
  url: string;
}

/** Turns bodies into normalized content, in this thread or on a pool of threads (parsing is CPU-bound). */
export interface ContentProcessor {
  normalize(input: ContentInput): Promise<NormalizedContent>;
  close(): Promise<void>;
}

export function inlineContentProcessor(): ContentProcessor {
  return {
    normalize: async (input) => normalizeContent(input),
    close: async () => undefined,
  };
}

interface Pending {
  resolve(v: NormalizedContent): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * A small pool of content threads. Each page goes to the thread with the fewest pages pending; the body is
 * transferred, not copied twice. A thread that dies fails only its own pages and is replaced.
 */
export function threadedContentProcessor(threads: number): ContentProcessor {
  const entry = new URL('./content-worker-boot.mjs', import.meta.url);
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  const spawnSlot = (): Slot => {
    const slot: Slot = { worker: new Worker(entry), pending: new Map() };
    slot.worker.unref();
    slot.worker.on('message', (m: { id?: number; ok?: boolean; value?: NormalizedContent; unsupported?: boolean; contentType?: string | null; message?: string }) => {
      if (m.id === undefined) return;
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (m.ok) p.resolve(m.value!);
      else p.reject(m.unsupported ? new UnsupportedContentTypeError(m.contentType ?? null) : new Error(`content thread: ${m.message}`));
    });
    const fail = (err: Error) => {
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
      const i = slots.indexOf(slot);
      if (i >= 0 && !closed) slots[i] = spawnSlot();
    };
    slot.worker.on('error', (err) => fail(err));
    slot.worker.on('exit', (code) => {
      if (!closed) fail(new Error(`content thread exited with ${code}`));
    });
    return slot;
  };
  for (let i = 0; i < threads; i++) slots.push(spawnSlot());

  return {
    normalize(input) {
      if (closed) return Promise.reject(new Error('content pool is closed'));
      let slot = slots[0];
      for (const s of slots) if (s.pending.size < slot.pending.size) slot = s;
      const id = nextId++;
      // Copy into a buffer we own so it can be transferred (the body may be a view into a shared pool).
      const body = new Uint8Array(input.body);
      return new Promise<NormalizedContent>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage({ id, body, contentType: input.contentType, url: input.url }, [body.buffer]);
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

/** `threads` 0 keeps parsing in the calling thread. */
export function createContentProcessor(threads: number): ContentProcessor {
  return threads > 0 ? threadedContentProcessor(threads) : inlineContentProcessor();
}
