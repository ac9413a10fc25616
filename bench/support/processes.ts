import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** Starts `node --import tsx <script>` and resolves with the first JSON announcement it prints on stdout. */
export async function startNodeProcess<T>(
  script: string,
  env: Record<string, string> = {},
  args: string[] = [],
  onLine?: (line: string) => void,
): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const rl = createInterface({ input: child.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    // The first JSON line that is not a pino log line is the process's announcement.
    rl.on('line', (line) => {
      onLine?.(line);
      try {
        const v = JSON.parse(line) as Record<string, unknown>;
        if (v && typeof v === 'object' && !('level' in v)) resolve(v as T);
      } catch {
        // not JSON: ordinary output
      }
    });
  });
  return { child, info };
}

/**
 * Starts `npm run worker`'s entry and resolves once it is running: a worker announces itself only with its banner on
 * stderr (stdout carries its log lines), which is passed on.
 */
export async function startWorkerProcess(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const args = script.endsWith('.mjs') ? [script] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const rl = createInterface({ input: child.stderr! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    rl.on('line', (line) => {
      process.stderr.write(`${line}\n`);
      if (line.startsWith('Trawl worker running')) resolve();
    });
  });
  return child;
}

/**
 * Starts a bundle of scripts/build.mjs (`dist/gateway.mjs`: what `npm start` runs) and resolves with its URL, read
 * from the banner it prints on stderr.
 */
export async function startBundledGateway(bundle: string, env: Record<string, string>): Promise<{ child: ChildProcess; info: { url: string } }> {
  // BENCH_CPU_PROF=dir: each gateway writes a CPU profile of its main thread there when it exits (what to cut).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...prof, bundle], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const rl = createInterface({ input: child.stderr! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${bundle} exited with ${code}`)));
    rl.on('line', (line) => {
      const m = /^Trawl listening on (\S+)/.exec(line);
      if (m) resolve(m[1]);
      else if (!/^(API|Development API|Metrics)/.test(line)) process.stderr.write(`${line}\n`);
    });
  });
  return { child, info: { url } };
}

/** Stops a child with SIGTERM and waits for its exit; one that has already exited (with a code or by a signal) is left. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
