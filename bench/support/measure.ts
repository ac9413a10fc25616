import { Bench } from 'tinybench';

export interface Measured {
  name: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Runs `fn` for `seconds` (after 1.5 s of warm-up) with `concurrency` calls in flight; rate and latency. */
export async function measure(name: string, concurrency: number, seconds: number, fn: () => Promise<void>): Promise<Measured> {
  const bench = new Bench({
    name,
    time: seconds * 1000,
    warmupTime: 1500,
    iterations: 0,
    ...(concurrency > 1 ? { concurrency: 'task' as const, threshold: concurrency } : { iterations: 64 }),
    retainSamples: false,
  });
  bench.add(name, fn);
  const started = performance.now();
  await bench.run();
  const wall = (performance.now() - started) / 1000;
  const task = bench.tasks[0];
  const r = task.result;
  if (r.state !== 'completed') throw new Error(`${name}: ${r.state} ${'error' in r ? r.error : ''}`);
  // tinybench's throughput is per iteration; with concurrent iterations the achieved rate is runs / time.
  return { name, concurrency, rps: task.runs / Math.max(wall - 1.5, 0.001), p50: r.latency.p50, p99: r.latency.p99 };
}
