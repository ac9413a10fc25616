import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process holds the data directory. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`the data directory ${dir} is in use by process ${pid}: stop it, or start this one with another TRAWL_DATA_DIR`);
  }
}

const LOCK_FILE = 'trawl.lock';
/** Directories this process holds: a lock naming our own pid is ours only if listed (else a dead process had our pid). */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the directory for this process: a lock file created exclusively with our pid. A lock left by a process that
 * is gone (kill -9, a crash) is taken over; one held by a live process refuses. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(path);
      return () => {
        held.delete(path);
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {
      continue; // Released meanwhile: try again.
    }
    const ours = holder === process.pid && held.has(path);
    if (ours || (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))) throw new DataDirLockedError(dir, holder);
    // Left by a dead process (or unreadable): remove and try again.
    try {
      unlinkSync(path);
    } catch {
      // Someone else removed it first.
    }
  }
  throw new Error(`could not lock the data directory ${dir}`);
}
