import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/index.ts';

const max = (v: string, extra: Record<string, string> = {}) => loadConfig({ TRAWL_DATA_MAX_BYTES: v, ...extra }).TRAWL_DATA_MAX_BYTES;

describe('TRAWL_DATA_MAX_BYTES', () => {
  it('is unset by default (no limit) and reads plain bytes, decimal and binary units', () => {
    expect(loadConfig({}).TRAWL_DATA_MAX_BYTES).toBeUndefined();
    expect(max('50000000000')).toBe(50_000_000_000);
    expect(max('50GB')).toBe(50_000_000_000);
    expect(max('40 GiB')).toBe(40 * 2 ** 30);
    expect(max('1.5tib')).toBe(1.5 * 2 ** 40);
    expect(max('2MiB')).toBe(2 * 2 ** 20);
  });

  it('stops start-up on a value that is not a byte count, or under 1 MiB, naming the variable', () => {
    for (const bad of ['lots', '10 GX', '-5GB', '1e9', '0', '1000KB']) {
      expect(() => max(bad), bad).toThrow(ConfigError);
    }
    expect(() => max('10 parsecs')).toThrow(/TRAWL_DATA_MAX_BYTES: must be a byte count such as 50000000000, 50GB or 40GiB/);
    expect(() => max('512KiB')).toThrow(/TRAWL_DATA_MAX_BYTES: must be at least 1 MiB/);
  });

  it('stops start-up where it could not apply (with REDIS_URL); applies to a data directory and to an in-memory store', () => {
    expect(() => max('10GB', { REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/TRAWL_DATA_MAX_BYTES: limits the embedded store \(data directory or :memory:\) only/);
    expect(max('10GB', { TRAWL_DATA_DIR: ':memory:' })).toBe(10_000_000_000);
    expect(max('10GB', { TRAWL_DATA_DIR: '/var/lib/trawl' })).toBe(10_000_000_000);
  });
});
