-- Extends the lease of a running job (runner heartbeat).
-- KEYS[1]  job hash   KEYS[2] leases zset
-- ARGV[1]  job id   ARGV[2] owner   ARGV[3] attempt (fences the lease)   ARGV[4] new lease end (ms)
-- Returns  1 renewed, 0 the lease is not held any more
local v = redis.call('HMGET', KEYS[1], 'state', 'owner', 'attempts')
if v[1] ~= 'running' or v[2] ~= ARGV[2] or v[3] ~= ARGV[3] then return 0 end
redis.call('ZADD', KEYS[2], 'XX', ARGV[4], ARGV[1])
redis.call('HSET', KEYS[1], 'lease_until', ARGV[4])
return 1
