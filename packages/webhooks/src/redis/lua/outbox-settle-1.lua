-- Settles a claimed delivery: delivered, given up (failed), or due again (retry).
-- KEYS[1] due zset
-- ARGV[1] delivery id   ARGV[2] the claim's attempt   ARGV[3] delivered | failed | retry
-- ARGV[4] failure reason ('' when delivered)   ARGV[5] retry due time (ms)   ARGV[6] key base
-- Returns the stream's pending count after it, or -1 when the claim was lost (a later attempt owns it) or the
-- stream is gone.
local dk = ARGV[6] .. 'd:' .. ARGV[1]
local d = redis.call('HMGET', dk, 'crawl', 'attempt')
if not d[1] or d[2] ~= ARGV[2] then return -1 end
local sk = ARGV[6] .. 's:' .. d[1]
if redis.call('EXISTS', sk) == 0 then
  redis.call('DEL', dk)
  redis.call('ZREM', KEYS[1], ARGV[1])
  return -1
end
if ARGV[3] ~= 'delivered' then redis.call('HINCRBY', sk, 'reason:' .. ARGV[4], 1) end
if ARGV[3] == 'retry' then
  redis.call('ZADD', KEYS[1], ARGV[5], ARGV[1])
  redis.call('HINCRBY', sk, 'retries', 1)
  return tonumber(redis.call('HGET', sk, 'pending'))
end
redis.call('DEL', dk)
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HINCRBY', sk, ARGV[3], 1)
return redis.call('HINCRBY', sk, 'pending', -1)
