import { readdirSync, readFileSync } from 'node:fs';

/** Every descendant process of `root` (not `root` itself), from /proc. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** Proportional set size of a process in MiB (shared pages split among their users), 0 if it is gone. */
export function pssMb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** PSS of the Chromium processes under `root`, in MiB. */
export function chromiumPssMb(root: number): number {
  let total = 0;
  for (const pid of descendants(root)) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('chrom')) total += pssMb(pid);
    } catch {
      // gone
    }
  }
  return total;
}
