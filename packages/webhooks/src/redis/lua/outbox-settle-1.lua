-- Settles a claimed delivery: delivered, given up (failed), or due again (retry); the outcome is written to the
-- delivery's record in the crawl's log.
-- KEYS[1] due zset
-- ARGV[1] delivery id   ARGV[2] the claim's attempt   ARGV[3] delivered | failed | retry
-- ARGV[4] failure reason ('' when delivered)   ARGV[5] retry due time (ms)   ARGV[6] key base
-- ARGV[7] the receiver's HTTP status ('' when none)   ARGV[8] the attempt's duration (ms)
-- Returns the stream's pending count after it, or -1 when the claim was lost (a later attempt owns it) or the
-- stream is gone.
local dk = ARGV[6] .. 'd:' .. ARGV[1]
local d = redis.call('HMGET', dk, 'crawl', 'attempt', 'pos')
if not d[1] or d[2] ~= ARGV[2] then return -1 end
local sk = ARGV[6] .. 's:' .. d[1]
if redis.call('EXISTS', sk) == 0 then
  redis.call('DEL', dk)
  redis.call('ZREM', KEYS[1], ARGV[1])
  return -1
end
local lk = ARGV[6] .. 'l:' .. d[1]
local raw = d[3] and redis.call('HGET', lk, d[3])
if raw then
  local r = cjson.decode(raw)
  if ARGV[3] == 'retry' then
    r.status = 'pending'
    r.next_attempt_at = tonumber(ARGV[5])
  else
    r.status = ARGV[3]
    r.next_attempt_at = nil
  end
  local reason = ARGV[4]
  if reason == '' then reason = 'none' end
  r.last_outcome = { reason = reason, http_status = tonumber(ARGV[7]), duration_ms = tonumber(ARGV[8]) }
  redis.call('HSET', lk, d[3], cjson.encode(r))
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
