import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { closeConnection, connectRedis, type RedisConnection } from '@trawl/redis';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** A real local Redis Cluster: `redis-server --cluster-enabled yes` nodes joined by `redis-cli --cluster create`. */
export interface RedisCluster {
  /** Every node's URL, masters and replicas (seed nodes for REDIS_CLUSTER_NODES). */
  readonly urls: string[];
  /** REDIS_CLUSTER_NODES for a process. */
  readonly nodesEnv: string;
  /** Ports of the nodes that are masters now (a failover changes them). */
  masterPorts(): Promise<number[]>;
  /** `CLUSTER NODES` as a live node sees it (for failure messages). */
  nodes(): Promise<string>;
  /** The last lines of one node's log (for failure messages). */
  logTail(port: number, lines?: number): string;
  /** The port of the master serving a slot now. */
  masterPortForSlot(slot: number): Promise<number>;
  /** SIGKILL one node (a failover drill); its replica is promoted after the node timeout. */
  kill(port: number): Promise<void>;
  /** Resolves once every slot is served and the cluster reports ok, as seen from `port`. */
  waitHealthy(port?: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  masters?: number;
  replicasPerMaster?: number;
  /** cluster-node-timeout: how long a master may be silent before its replica takes over. */
  nodeTimeoutMs?: number;
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 55_000 || taken.has(port) || taken.has(port + 10_000)) continue;
    if (await canListen(port + 10_000)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 });
  return stdout;
}

export async function startRedisCluster(opts: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 1;
  const nodeTimeout = opts.nodeTimeoutMs ?? 2_000;
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) {
    const p = await clusterPort(taken);
    taken.add(p);
    taken.add(p + 10_000);
    ports.push(p);
  }
  const dir = mkdtempSync(join(tmpdir(), 'trawl-redis-cluster-'));
  const children = new Map<number, ChildProcess>();
  for (const port of ports) {
    // A directory per node: a replica's full sync writes an RDB file there, which nodes must not share.
    const nodeDir = join(dir, String(port));
    mkdirSync(nodeDir);
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', nodeDir, '--logfile', 'redis.log'];
    // A replica's first sync starts at once (not 5 s later): a replica that never synced cannot take over.
    args.push('--repl-diskless-sync-delay', '0');
    args.push('--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(nodeTimeout));
    children.set(port, spawn('redis-server', args, { stdio: 'ignore' }));
  }
  const stop = async () => {
    await Promise.all([...children.values()].map((c) => killed(c, 'SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await answers(port, 10_000);
    const addrs = ports.map((p) => `127.0.0.1:${p}`);
    await run('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', String(replicas), '--cluster-yes'], { timeout: 30_000 });
  } catch (err) {
    await stop();
    throw err;
  }
  const cluster: RedisCluster = {
    urls: ports.map((p) => `redis://127.0.0.1:${p}`),
    nodesEnv: ports.map((p) => `redis://127.0.0.1:${p}`).join(','),
    async masterPorts() {
      const alive = ports.filter((p) => children.get(p)?.exitCode === null && children.get(p)?.signalCode === null);
      const out = await cli(alive[0] ?? ports[0], 'cluster', 'nodes');
      return out
        .split('\n')
        .filter((l) => / master(,|\s)/.test(l) && !l.includes('fail'))
        .map((l) => Number(/:(\d+)@/.exec(l)?.[1]));
    },
    logTail(port, lines = 30) {
      try {
        return readFileSync(join(dir, String(port), 'redis.log'), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '(no log)';
      }
    },
    async nodes() {
      const alive = ports.filter((p) => children.get(p)?.exitCode === null && children.get(p)?.signalCode === null);
      return cli(alive[0] ?? ports[0], 'cluster', 'nodes').catch((err: unknown) => String(err));
    },
    async masterPortForSlot(slot) {
      const alive = ports.filter((p) => children.get(p)?.exitCode === null && children.get(p)?.signalCode === null);
      const out = await cli(alive[0] ?? ports[0], 'cluster', 'nodes');
      for (const line of out.split('\n')) {
        const f = line.split(' ');
        if (!/(^|,)master(,|$)/.test(f[2] ?? '') || (f[2] ?? '').includes('fail')) continue;
        for (const range of f.slice(8)) {
          const [a, b] = range.split('-').map(Number);
          if (slot >= a && slot <= (b ?? a)) return Number(/:(\d+)@/.exec(f[1])?.[1]);
        }
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    async kill(port) {
      const c = children.get(port);
      if (c) await killed(c, 'SIGKILL');
    },
    async waitHealthy(port = ports[0], timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const info = await cli(port, 'cluster', 'info').catch(() => '');
        if (/cluster_state:ok/.test(info) && /cluster_slots_ok:16384/.test(info)) return;
        if (Date.now() > end) throw new Error(`redis cluster not healthy after ${timeoutMs} ms: ${info.split('\n').slice(0, 3).join(' ')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop,
  };
  // `--cluster create` returns once the nodes agree; every node must also see every slot served, and every replica
  // must have synced with its master (until then a master's death loses its slots for good).
  for (const port of ports) await cluster.waitHealthy(port);
  for (const port of ports) await replicaSynced(port, 20_000);
  return cluster;
}

/** Resolves at once for a master; for a replica, once its link to its master is up (first sync done). */
async function replicaSynced(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const info = await cli(port, 'info', 'replication').catch(() => '');
    if (/role:master/.test(info) || /master_link_status:up/.test(info)) return;
    if (Date.now() > end) throw new Error(`redis replica on ${port} did not sync with its master`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function answers(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if ((await cli(port, 'ping').catch(() => '')).trim() === 'PONG') return;
    if (Date.now() > end) throw new Error(`redis-server on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function killed(c: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill(signal);
  await exited;
}

/** One Redis Cluster and a cluster connection for a test file, started before its tests and stopped after them. */
export function useRedisCluster(opts?: RedisClusterOptions): { readonly cluster: RedisCluster; readonly conn: RedisConnection } {
  let cluster: RedisCluster | undefined;
  let conn: RedisConnection | undefined;
  beforeAll(async () => {
    cluster = await startRedisCluster(opts);
    conn = await connectRedis({ clusterNodes: cluster.urls }, 'test');
  }, 60_000);
  afterAll(async () => {
    if (conn) await closeConnection(conn);
    await cluster?.stop();
  });
  return {
    get cluster() {
      if (!cluster) throw new Error('useRedisCluster: used outside a test');
      return cluster;
    },
    get conn() {
      if (!conn) throw new Error('useRedisCluster: used outside a test');
      return conn;
    },
  };
}
