-- A consistent read of a crawl's state and counters.
-- KEYS[1] meta hash   KEYS[2] leases zset   KEYS[3] items list
-- Returns {meta as flat field/value list, leases held, items delivered}; empty if no such crawl. Queued pages are
-- the meta's `open` (admitted, not yet settled: queued or leased) less the leases held, so a read costs the same
-- whatever the number of hosts (summing the host queues cost one LLEN per host).
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {} end
return {meta, redis.call('ZCARD', KEYS[2]), redis.call('LLEN', KEYS[3])}
