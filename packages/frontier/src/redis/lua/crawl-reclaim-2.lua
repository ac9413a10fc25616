-- Returns expired leases (their worker died or stalled) to the front of their host queues.
-- KEYS[1] meta hash   KEYS[2] leases zset
-- ARGV[1] now (ms)   ARGV[2] key base   ARGV[3] max to reclaim
-- Returns the number reclaimed. Leases of an ended crawl are dropped instead.
--- @include "includes/crawl-status"
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
if #expired == 0 then return 0 end
local status = redis.call('HGET', KEYS[1], 'status')
local live = crawlIsLive(status)
for _, m in ipairs(expired) do
  redis.call('ZREM', KEYS[2], m)
  if live then
    local a = string.find(m, '\n', 1, true)
    local b = string.find(m, '\n', a + 1, true)
    redis.call('LPUSH', ARGV[2] .. 'q:' .. string.sub(m, a + 1, b - 1), string.sub(m, b + 1))
  else
    redis.call('HINCRBY', KEYS[1], 'dropped', 1)
  end
end
return #expired
