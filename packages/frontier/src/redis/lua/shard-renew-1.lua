-- Extends a shard lease if the caller still owns it.
-- KEYS[1] shard owner key   ARGV[1] worker id   ARGV[2] ttl (ms)
-- Returns 1 renewed, 0 owned by someone else or expired.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
