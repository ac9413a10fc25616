import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds (user + system) used so far by a process, from /proc. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** Peak resident set size of a process in MiB (VmHWM). */
export function peakRssMbOf(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** The figures every peer reports: pages delivered, wall time, CPU and peak memory of its own process(es). */
export interface PeerResult {
  pages: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  /** Pages delivered more than once (read back from the crawl's items), where the peer can tell. */
  duplicates?: number;
  redisCommands?: number;
  redisCpuMs?: number;
}

/**
 * CPU milliseconds of a process's descendants whose command name matches `comm` (each one's own time plus that of
 * its children it has reaped), and of every child the root itself has reaped (a Chromium that was closed). A
 * descendant that exited is counted through its parent's reaped-children time, so take the difference of two calls.
 */
export function descendantsCpuMs(root: number, comm: RegExp): number {
  const children = new Map<number, { pid: number; name: string; ms: number }[]>();
  let rootReaped = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ticks = (i: number) => Number(f[i]);
    if (pid === root) rootReaped = ((ticks(13) + ticks(14)) * 1000) / 100;
    const ppid = ticks(1);
    const list = children.get(ppid) ?? [];
    list.push({ pid, name, ms: ((ticks(11) + ticks(12) + ticks(13) + ticks(14)) * 1000) / 100 });
    children.set(ppid, list);
  }
  let total = rootReaped;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (comm.test(p.name)) total += p.ms;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return total;
}

/**
 * Resident memory of a process now, in MiB, split as /proc/<pid>/status does: anonymous pages (heaps, stacks: what
 * the process itself holds) and file-backed ones (mapped files, LMDB's data file among them, which the kernel may
 * drop and read again). VmRSS is their sum with shared memory.
 */
export interface ProcMemory {
  rssMb: number;
  anonMb: number;
  fileMb: number;
}

export function memoryOf(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: mb('VmRSS'), anonMb: mb('RssAnon'), fileMb: mb('RssFile') };
}

/** How many maps of a file (by its path's end, e.g. `/trawl.mdb`) a process has. */
export function mapsOf(pid: number, pathEnd: string): number {
  return readFileSync(`/proc/${pid}/maps`, 'utf8')
    .split('\n')
    .filter((l) => l.endsWith(pathEnd)).length;
}
