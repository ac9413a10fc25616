import { parentPort } from 'node:worker_threads';
import { normalizeContent, UnsupportedContentTypeError } from '@trawl/content';

/** A content thread: normalizes bodies posted by the pool, one message per page. */
interface Task {
  id: number;
  body: Uint8Array;
  contentType: string | null;
  url: string;
}

parentPort!.on('message', (t: Task) => {
  try {
    const body = Buffer.from(t.body.buffer, t.body.byteOffset, t.body.byteLength);
    parentPort!.postMessage({ id: t.id, ok: true, value: normalizeContent({ body, contentType: t.contentType, url: t.url }) });
  } catch (err) {
    const unsupported = err instanceof UnsupportedContentTypeError;
    parentPort!.postMessage({
      id: t.id,
      ok: false,
      unsupported,
      contentType: unsupported ? err.contentType : null,
      message: unsupported ? 'unsupported content type' : String((err as Error)?.message ?? err),
    });
  }
});
parentPort!.postMessage({ ready: true });
