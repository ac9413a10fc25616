export { LruMap } from './lru-map.ts';
