import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '@trawl/test-support/crawl-client.ts';
import { startGatewayProcess, startWorkerProcess, stopAllProcesses, type ManagedProcess } from '@trawl/test-support/processes.ts';
import { connect, randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

/**
 * An idle process costs little: new crawls and trends jobs are announced to it, so while nothing happens it only
 * keeps itself registered, with the occasional safety look. Counted, not timed, over a window once the process has
 * settled: the commands an idle worker sends Redis (MONITOR, its own commands only, not those of its Lua scripts)
 * and how often the main thread of an idle worker or embedded gateway wakes (its voluntary context switches).
 *
 * Before: 140 commands in 10 s (trends and webhook claims 4 times a second each, a 5-command heartbeat every
 * second) and 145 wake-ups a second (Crawlee's pool looked for a page every 20 ms, prom-client sampled the event
 * loop every 10 ms). Now about 22 commands and 15 wake-ups a second (10 of them the event-loop sampling, every 100 ms).
 */
const WINDOW_MS = 10_000;
/** Time for the first heartbeats and for the backing-off loops to reach their idle pace. */
const SETTLE_MS = 5_000;
const MAX_COMMANDS = 40;
const MAX_WAKEUPS_PER_S = 40;

const linux = existsSync('/proc/self/task');

/** Voluntary context switches of a process's main thread: each time it blocked, i.e. woke up and went idle again. */
function wakeups(pid: number): number {
  return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'))![1]);
}

async function wakeupsPerSecond(p: ManagedProcess): Promise<number> {
  const before = wakeups(p.pid);
  const t0 = Date.now();
  await sleep(WINDOW_MS);
  return ((wakeups(p.pid) - before) * 1000) / (Date.now() - t0);
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await stopAllProcesses();
  await redis?.stop();
});

describe('an idle process', () => {
  it('worker: a few Redis commands and wake-ups while nothing happens', async () => {
    const worker = await startWorkerProcess('idle worker', { REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix(), LOG_LEVEL: 'warn' });
    await sleep(SETTLE_MS);
    const monitor = await connect(redis.url);
    const seen: string[] = [];
    // `[0 127.0.0.1:port] "zadd" ...` for a client's command; `[0 lua] ...` for a command its script ran.
    await monitor.monitor((line) => {
      if (!/\[\d+ lua\]/.test(line)) seen.push(line.replace(/^[\d.]+ \[[^\]]*\] /, '').split(' ')[0].replaceAll('"', '').toLowerCase());
    });
    const perSecond = linux ? await wakeupsPerSecond(worker) : (await sleep(WINDOW_MS), 0);
    // A monitoring connection answers no QUIT: dropped.
    monitor.destroy();
    const byCommand = seen.reduce<Record<string, number>>((m, c) => ({ ...m, [c]: (m[c] ?? 0) + 1 }), {});
    expect(seen.length, `commands in ${WINDOW_MS} ms: ${JSON.stringify(byCommand)}`).toBeLessThanOrEqual(MAX_COMMANDS);
    // Still alive and registered: the heartbeat goes on.
    expect(byCommand.zadd ?? 0).toBeGreaterThan(0);
    if (linux) expect(perSecond, 'main-thread wake-ups per second').toBeLessThanOrEqual(MAX_WAKEUPS_PER_S);
    await worker.stop();
  });

  it.skipIf(!linux)('embedded gateway: few wake-ups while nothing happens', async () => {
    const gw = await startGatewayProcess('idle gateway', { LOG_LEVEL: 'warn' });
    await sleep(SETTLE_MS);
    expect(await wakeupsPerSecond(gw), 'main-thread wake-ups per second').toBeLessThanOrEqual(MAX_WAKEUPS_PER_S);
    await gw.stop();
  });
});
