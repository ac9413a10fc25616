-- A consistent read of a crawl's state and counters.
-- KEYS[1] meta hash   KEYS[2] leases zset   KEYS[3] items list   KEYS[4] hosts hash
-- ARGV[1] key base
-- Returns {meta as flat field/value list, leases held, items delivered, queued}; empty if no such crawl.
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {} end
local queued = 0
for _, h in ipairs(redis.call('HKEYS', KEYS[4])) do queued = queued + redis.call('LLEN', ARGV[1] .. 'q:' .. h) end
return {meta, redis.call('ZCARD', KEYS[2]), redis.call('LLEN', KEYS[3]), queued}
