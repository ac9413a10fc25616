export {
  closeConnection,
  connectRedis,
  getBuffer,
  lIndexBuffer,
  lRangeBuffers,
  isClusterConnection,
  RedisUnreachableError,
  reconnectDelay,
  sendCommand,
  RECONNECT_MAX_DELAY_MS,
  type RedisClusterConnection,
  type RedisConnection,
  type RedisServerConnection,
  type RedisTarget,
} from './client.ts';
export { LuaScript, loadScripts } from './script.ts';
export { isStoreUnavailable, whileStoreUnavailable, type OutageRetry } from './unavailable.ts';
export { RedisRecordIndex, type RecordIndexKeys } from './record-index.ts';
export { keySlot } from './key-slot.ts';
