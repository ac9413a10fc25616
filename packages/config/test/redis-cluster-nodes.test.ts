import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redisTarget } from '../src/index.ts';

describe('REDIS_CLUSTER_NODES', () => {
  it('names a Redis Cluster by some of its nodes; REDIS_URL one server; neither is embedded mode', () => {
    const nodes = 'redis://10.0.0.1:6379, redis://10.0.0.2:6379,rediss://user:pw@10.0.0.3:6380';
    expect(redisTarget(loadConfig({ REDIS_CLUSTER_NODES: nodes }))).toEqual({
      clusterNodes: ['redis://10.0.0.1:6379', 'redis://10.0.0.2:6379', 'rediss://user:pw@10.0.0.3:6380'],
    });
    expect(redisTarget(loadConfig({ REDIS_URL: 'redis://10.0.0.1:6379' }))).toEqual({ url: 'redis://10.0.0.1:6379' });
    expect(redisTarget(loadConfig({}))).toBeNull();
  });

  it('stops start-up on a node that is not a redis URL, on an empty list, and beside REDIS_URL, naming the variable', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:1,http://b:2' })).toThrow(/REDIS_CLUSTER_NODES\.1: each node must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: ' , ' })).toThrow(/REDIS_CLUSTER_NODES: must name at least one node/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:1', REDIS_URL: 'redis://b:2' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:1', REDIS_URL: 'redis://b:2' })).toThrow(/REDIS_CLUSTER_NODES: names a cluster, REDIS_URL one server/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:1', TRAWL_DATA_MAX_BYTES: '1GB' })).toThrow(/TRAWL_DATA_MAX_BYTES: limits the embedded store/);
  });
});
