/**
 * Makes Playwright's HAR safe to hand to the caller: the recording is of the caller's own page, but the context's
 * cookies and any credentials in headers are redacted, and where the bytes went (the egress gate's address,
 * connection ids) is dropped. Bodies are never recorded (content: 'omit').
 */
const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);

interface HarHeader {
  name: string;
  value: string;
}
interface HarMessage {
  headers?: HarHeader[];
  cookies?: unknown[];
}
interface HarEntry {
  request?: HarMessage;
  response?: HarMessage;
  serverIPAddress?: string;
  connection?: string;
  [key: string]: unknown;
}

export function sanitizeHar(raw: string): Buffer {
  const har = JSON.parse(raw) as { log?: { entries?: HarEntry[] } };
  for (const entry of har.log?.entries ?? []) {
    delete entry.serverIPAddress;
    delete entry.connection;
    for (const message of [entry.request, entry.response]) {
      if (!message) continue;
      message.cookies = [];
      for (const h of message.headers ?? []) {
        if (SECRET_HEADERS.has(h.name.toLowerCase())) h.value = '[redacted]';
      }
    }
  }
  return Buffer.from(JSON.stringify(har));
}
