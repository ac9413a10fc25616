-- Returns a leased request to its host queue.
-- KEYS[1] meta hash   KEYS[2] leases zset
-- ARGV[1] lease member   ARGV[2] request JSON to queue   ARGV[3] retry category ('' = plain release)
-- ARGV[4] key base   ARGV[5] host
-- Returns 1 requeued, 0 the lease was not held or the crawl has ended. A retry goes to the back and is counted;
-- a release to the front. A lease handed back after the crawl ended counts as dropped and is not queued again
-- (the terminal transition already dropped the queues; a late requeue would leave queued work for ever).
--- @include "includes/crawl-status"
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
local status = redis.call('HGET', KEYS[1], 'status')
if not crawlIsLive(status) then
  redis.call('HINCRBY', KEYS[1], 'dropped', 1)
  return 0
end
if ARGV[3] == '' then
  redis.call('LPUSH', ARGV[4] .. 'q:' .. ARGV[5], ARGV[2])
else
  redis.call('RPUSH', ARGV[4] .. 'q:' .. ARGV[5], ARGV[2])
  redis.call('HINCRBY', KEYS[1], 'retry:' .. ARGV[3], 1)
end
return 1
