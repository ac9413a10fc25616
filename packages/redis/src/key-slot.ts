/**
 * The Redis Cluster slot of a key (0–16383), as the cluster computes it: CRC16/XMODEM of the key's hash tag (the
 * text between the first `{` and the next `}`, when not empty) or else of the whole key, mod 16384. node-redis
 * computes it too but does not export it; conformance: packages/redis/test/key-slot.e2e.test.ts against CLUSTER KEYSLOT.
 */
export function keySlot(key: string | Buffer): number {
  const bytes = typeof key === 'string' ? Buffer.from(key) : key;
  const open = bytes.indexOf(0x7b);
  let from = 0;
  let to = bytes.length;
  if (open !== -1) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) {
      from = open + 1;
      to = close;
    }
  }
  let crc = 0;
  for (let i = from; i < to; i++) crc = ((crc << 8) & 0xff00) ^ CRC16[((crc >> 8) ^ bytes[i]) & 0xff];
  return crc & 0x3fff;
}

/** CRC16/XMODEM (polynomial 0x1021) by byte. */
const CRC16 = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();
