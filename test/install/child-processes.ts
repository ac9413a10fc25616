import { readdirSync, readFileSync } from 'node:fs';

/** The live child processes of `pid` (zombies, already ended, left out), with their command names (Linux /proc). */
export function childProcesses(pid: number): { pid: number; name: string }[] {
  const children: { pid: number; name: string }[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let list: string;
    try {
      list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    for (const child of list.split(' ').filter((s) => s !== '').map(Number)) {
      try {
        // "pid (comm) state …": comm may hold spaces and parentheses, the state follows the last ")".
        const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        if (state !== 'Z') children.push({ pid: child, name });
      } catch {
        // gone meanwhile
      }
    }
  }
  return children;
}

/** Resolves with `pid`'s live esbuild children once there are none, or with those still there after `waitMs`. */
export async function esbuildChildrenLeft(pid: number, waitMs = 10_000): Promise<number[]> {
  // esbuild's stop() signals its service process; that process ends a moment later, not before stop() returns.
  const until = Date.now() + waitMs;
  for (;;) {
    const left = childProcesses(pid).filter((c) => c.name === 'esbuild').map((c) => c.pid);
    if (left.length === 0 || Date.now() >= until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}
