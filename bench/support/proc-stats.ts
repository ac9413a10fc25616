import { readFileSync } from 'node:fs';

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
