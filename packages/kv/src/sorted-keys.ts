/**
 * Key order as LMDB keeps it (lmdb-kv.ts stores keys as their UTF-8 bytes): UTF-8 byte order is code point order.
 * JS's `<` compares UTF-16 units, which differs only where one string has a surrogate (a code point past U+FFFF)
 * and the other a unit in U+E000..U+FFFF: UTF-16 puts the surrogate first. `orderKey` maps each unit so that `<`
 * on the mapped strings is code point order (surrogates above U+E000..U+FFFF, each group keeping its own order), so
 * the sorted structures below compare with the engine's own string comparison. Keys without a unit past U+D7FF,
 * nearly all of them, map to themselves.
 */
const HIGH_UNIT = /[\uD800-\uFFFF]/;

const mapUnits = (s: string, map: (unit: number) => number) => {
  let out = '';
  for (let i = 0; i < s.length; i++) out += String.fromCharCode(map(s.charCodeAt(i)));
  return out;
};

/** The string whose UTF-16 order is `key`'s UTF-8 order. */
export const orderKey = (key: string) => (HIGH_UNIT.test(key) ? mapUnits(key, (u) => (u >= 0xe000 ? u - 0x800 : u >= 0xd800 ? u + 0x2000 : u)) : key);

/** The key an orderKey came from. */
export const keyOfOrder = (ord: string) => (HIGH_UNIT.test(ord) ? mapUnits(ord, (u) => (u >= 0xf800 ? u - 0x2000 : u >= 0xd800 ? u + 0x800 : u)) : ord);

/** The first string after every string that starts with `prefix` (undefined: none, every string may follow). */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix.length;
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xffff) end--;
  return end === 0 ? undefined : prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1);
}

/** Keys per block before it is split in two: a splice moves at most this many references. */
const MAX_BLOCK = 512;

/**
 * A sorted set of strings in `<` order, as a list of sorted blocks (each at most MAX_BLOCK strings): an insert or
 * delete is two binary searches and a splice inside one block, so it stays cheap at millions of keys where one
 * sorted array would move them all. Callers store orderKeys in it. Seeks find a key's neighbour, so a walk that
 * re-seeks from the key it last saw is unaffected by writes made meanwhile (memory-kv.ts ranges do that).
 */
export class SortedKeys {
  private blocks: string[][] = [];

  /** The first position whose string is at or after `k` (after, with `strict`); [blocks, 0] when none. */
  private seek(k: string, strict: boolean): [number, number] {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = blocks[mid]!;
      const last = block[block.length - 1]!;
      if (strict ? last > k : last >= k) hi = mid;
      else lo = mid + 1;
    }
    if (lo === blocks.length) return [lo, 0];
    const block = blocks[lo]!;
    let a = 0;
    let b = block.length - 1;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const v = block[mid]!;
      if (strict ? v > k : v >= k) b = mid;
      else a = mid + 1;
    }
    return [lo, a];
  }

  /** false when the string was there already. */
  add(k: string): boolean {
    if (this.blocks.length === 0) {
      this.blocks.push([k]);
      return true;
    }
    let [b, i] = this.seek(k, false);
    if (this.blocks[b]?.[i] === k) return false;
    if (b === this.blocks.length) {
      b -= 1;
      i = this.blocks[b]!.length;
    }
    const block = this.blocks[b]!;
    block.splice(i, 0, k);
    if (block.length > MAX_BLOCK) this.blocks.splice(b + 1, 0, block.splice(block.length >>> 1));
    return true;
  }

  delete(k: string): boolean {
    const [b, i] = this.seek(k, false);
    const block = this.blocks[b];
    if (block?.[i] !== k) return false;
    block.splice(i, 1);
    if (block.length === 0) this.blocks.splice(b, 1);
    return true;
  }

  /** The first string at or after `k` (after it, with `strict`). */
  ceiling(k: string, strict = false): string | undefined {
    const [b, i] = this.seek(k, strict);
    return this.blocks[b]?.[i];
  }

  /** The last string before `k` (or at it, with `inclusive`); undefined `k`: the last string. */
  floor(k: string | undefined, inclusive = false): string | undefined {
    let [b, i] = k === undefined ? [this.blocks.length, 0] : this.seek(k, inclusive);
    if (i === 0) {
      if (b === 0) return undefined;
      b -= 1;
      i = this.blocks[b]!.length;
    }
    return this.blocks[b]![i - 1];
  }

  clear(): void {
    this.blocks = [];
  }
}
