import type { Kv } from './kv.ts';

/** What the data directory takes, against its limit (TRAWL_DATA_MAX_BYTES). */
export interface DataDirUsage {
  /** Bytes of the pages holding live data (falls when retention deletes keys). */
  usedBytes: number;
  /** Bytes of the data file (its high-water mark: freed pages are reused, the file never shrinks). */
  fileBytes: number;
  /** The limit, or null when there is none. */
  maxBytes: number | null;
  /** usedBytes has reached maxBytes: no new work is accepted. */
  full: boolean;
}

export interface DataDirSpaceOptions {
  /** null: no limit, never full. */
  maxBytes: number | null;
  /** The clock the measure's age is judged by (tests inject one). */
  now?: () => number;
  /** How long one measure is reused. */
  refreshMs?: number;
  /** Called when the directory becomes full and when it has room again (once per change, to log it). */
  onChange?: (usage: DataDirUsage) => void;
}

/** A measure costs about 15 µs (LMDB's stats and a stat(2)); reused for a second, it costs nothing per request. */
const SPACE_REFRESH_MS = 1_000;

/**
 * The rule of TRAWL_DATA_MAX_BYTES: the directory is full once the bytes in use reach the limit. Measured on
 * demand, at most once per `refreshMs`, so a burst of requests shares one measure (and may pass up to that much
 * late: the limit is a threshold for new work, not a hard cap on the file).
 */
export class DataDirSpace {
  private last: DataDirUsage | null = null;
  private measuredAt = 0;
  private readonly now: () => number;
  private readonly refreshMs: number;

  constructor(
    private readonly kv: Kv,
    private readonly opts: DataDirSpaceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.refreshMs = opts.refreshMs ?? SPACE_REFRESH_MS;
  }

  get maxBytes(): number | null {
    return this.opts.maxBytes;
  }

  usage(): DataDirUsage {
    const t = this.now();
    if (this.last && t - this.measuredAt < this.refreshMs) return this.last;
    const { usedBytes, fileBytes } = this.kv.space();
    const maxBytes = this.opts.maxBytes;
    const usage = { usedBytes, fileBytes, maxBytes, full: maxBytes !== null && usedBytes >= maxBytes };
    const changed = this.last !== null && this.last.full !== usage.full;
    // The first measure reports a directory that starts full, too.
    if (changed || (this.last === null && usage.full)) this.opts.onChange?.(usage);
    this.last = usage;
    this.measuredAt = t;
    return usage;
  }

  full(): boolean {
    return this.usage().full;
  }
}
