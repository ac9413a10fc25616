-- Sets every key of an ended crawl to vanish after a while, so Redis does not keep crawls for ever.
-- KEYS[1] meta hash   KEYS[2] hosts hash   KEYS[3] seen set   KEYS[4] leases zset   KEYS[5] items list
-- ARGV[1] milliseconds until the keys go   ARGV[2] key base (host queues are ARGV[2] .. 'q:' .. host)
-- Returns 1, or 0 when there is no such crawl.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ms = tonumber(ARGV[1])
for _, h in ipairs(redis.call('HKEYS', KEYS[2])) do
  redis.call('PEXPIRE', ARGV[2] .. 'q:' .. h, ms)
end
for i = 1, 5 do
  redis.call('PEXPIRE', KEYS[i], ms)
end
return 1
