/** One event of a text/event-stream, as the WHATWG EventSource parser assembles it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Parses a text/event-stream body into events (the HTML standard's rules: `field: value` lines, a blank line ends
 * an event, lines starting with `:` are comments, several `data:` lines are joined with newlines). `retry` hands
 * back a `retry:` field's value.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>, retry: (ms: number) => void = () => undefined): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) retry(Number(value));
      }
    }
  } finally {
    reader.releaseLock();
  }
}
