-- Claims deliveries that are due: attempt + 1, due again when the lease ends (a dead claimer's come back); the
-- attempt and its start are written to the delivery's record in the crawl's log.
-- KEYS[1] due zset
-- ARGV[1] now (ms)   ARGV[2] max deliveries   ARGV[3] lease (ms)   ARGV[4] key base
-- Returns a flat list of septuplets: id, crawl id, type, seq, created_at, attempt, stream config JSON.
-- A delivery whose stream was forgotten is dropped.
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local dk = ARGV[4] .. 'd:' .. id
  local d = redis.call('HMGET', dk, 'crawl', 'type', 'seq', 'created_at', 'pos')
  local config = false
  if d[1] then config = redis.call('HGET', ARGV[4] .. 's:' .. d[1], 'config') end
  if not config then
    redis.call('ZREM', KEYS[1], id)
    redis.call('DEL', dk)
  else
    local attempt = redis.call('HINCRBY', dk, 'attempt', 1)
    redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), id)
    local lk = ARGV[4] .. 'l:' .. d[1]
    local raw = d[5] and redis.call('HGET', lk, d[5])
    if raw then
      local r = cjson.decode(raw)
      r.attempts = attempt
      r.last_attempt_at = tonumber(ARGV[1])
      r.next_attempt_at = nil
      redis.call('HSET', lk, d[5], cjson.encode(r))
    end
    for _, v in ipairs({ id, d[1], d[2], d[3], d[4], attempt, config }) do out[#out + 1] = v end
  end
end
return out
