-- Leases up to N queued requests of one host of a crawl.
-- KEYS[1] meta hash   KEYS[2] leases zset (member "<token>\n<host>\n<request JSON>", score = lease expiry ms)
-- KEYS[3] the host's queue list
-- ARGV[1] lease expiry (ms)   ARGV[2] max requests   ARGV[3] token prefix (unique per call)   ARGV[4] host
-- ARGV[5] now (ISO, for started_at)
-- Returns {started, member...}: started is 1 for the one call whose lease started the crawl (queued -> running),
-- else 0; no members unless the crawl is queued or running.
-- The queue is popped before the status is read: an empty queue (a host asking again for work, an ended crawl,
-- whose queues are gone) answers after one command; what a paused crawl's queue gave is pushed back in order.
--- @include "includes/crawl-status"
local popped = redis.call('LPOP', KEYS[3], ARGV[2])
if not popped then return {0} end
local status = redis.call('HGET', KEYS[1], 'status')
if not crawlIsLeasing(status) then
  local back = {}
  for i = #popped, 1, -1 do back[#back + 1] = popped[i] end
  redis.call('LPUSH', KEYS[3], unpack(back))
  return {0}
end
local zargs = {}
for i, json in ipairs(popped) do
  local m = ARGV[3] .. i .. '\n' .. ARGV[4] .. '\n' .. json
  popped[i] = m
  zargs[#zargs + 1] = ARGV[1]
  zargs[#zargs + 1] = m
end
redis.call('ZADD', KEYS[2], unpack(zargs))
local started = 0
if status == 'queued' then
  redis.call('HSET', KEYS[1], 'status', 'running', 'started_at', ARGV[5])
  started = 1
end
table.insert(popped, 1, started)
return popped
