-- Compare-and-set of a crawl's status; a terminal status drops everything still queued and every lease still out
-- (a page running when the crawl ended is never delivered: its completion finds no lease).
-- KEYS[1] meta hash   KEYS[2] hosts hash   KEYS[3] leases zset
-- ARGV[1] allowed current statuses, comma separated   ARGV[2] new status   ARGV[3] now (ISO)
-- ARGV[4] failure JSON ('' = none)   ARGV[5] key base   ARGV[6] '1' if the new status is terminal
-- Returns 1 changed, 0 not (current status not allowed, or no such crawl).
local cur = redis.call('HGET', KEYS[1], 'status')
if not cur or not string.find(',' .. ARGV[1] .. ',', ',' .. cur .. ',', 1, true) then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'failure', ARGV[4]) end
if ARGV[6] == '1' then
  local dropped = redis.call('ZCARD', KEYS[3])
  redis.call('DEL', KEYS[3])
  for _, h in ipairs(redis.call('HKEYS', KEYS[2])) do
    local q = ARGV[5] .. 'q:' .. h
    dropped = dropped + redis.call('LLEN', q)
    redis.call('DEL', q)
  end
  redis.call('HINCRBY', KEYS[1], 'dropped', dropped)
  redis.call('HINCRBY', KEYS[1], 'open', -dropped)
  redis.call('HSET', KEYS[1], 'completed_at', ARGV[3])
end
return 1
