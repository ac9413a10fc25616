export { connectRedis, getBuffer, sendCommand, type RedisConnection } from './client.ts';
export { LuaScript, loadScripts } from './script.ts';
