export { closeConnection, connectRedis, getBuffer, RedisUnreachableError, reconnectDelay, sendCommand, RECONNECT_MAX_DELAY_MS, type RedisConnection } from './client.ts';
export { LuaScript, loadScripts } from './script.ts';
export { isStoreUnavailable, whileStoreUnavailable, type OutageRetry } from './unavailable.ts';
export { RedisRecordIndex, type RecordIndexKeys } from './record-index.ts';
