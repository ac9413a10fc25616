import type { WorkerRecord, WorkerReport } from './types.ts';

/**
 * A worker that missed its heartbeats stays listed (`lost`) for this many heartbeat TTLs, then is forgotten: its
 * record expires on both backends (and the Redis membership zset drops it at the same age).
 */
export const WORKER_FORGET_TTLS = 6;

export function workerRecord(id: string, lastHeartbeat: number, report: WorkerReport, now: number, ttlMs: number): WorkerRecord {
  return { id, state: lastHeartbeat > now - ttlMs ? 'live' : 'lost', last_heartbeat: new Date(lastHeartbeat).toISOString(), ...report };
}
