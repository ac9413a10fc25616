export { MAX_KEY_BYTES, type Kv, type KvSpace, type KvTx, type PutOptions, type RangeOptions } from './kv.ts';
export { openKv, type KvOptions } from './lmdb-kv.ts';
export { MEMORY_DIR, openMemoryKv, type MemoryKvOptions } from './memory-kv.ts';
export { DataDirLockedError, lockDataDir } from './dir-lock.ts';
export { KvRecordIndex } from './record-index.ts';
export { startExpirySweeper, type ExpirySweeperOptions } from './expiry-sweeper.ts';
export { DataDirSpace, type DataDirSpaceOptions, type DataDirUsage } from './data-dir-space.ts';
