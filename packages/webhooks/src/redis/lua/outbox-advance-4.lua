-- Compare and set of a stream's position; queues its new events, each once (by id), each with a record in the
-- crawl's delivery log at its queueing position.
-- KEYS[1] stream hash   KEYS[2] open streams set   KEYS[3] due zset   KEYS[4] the crawl's delivery log hash
-- ARGV[1] crawl id   ARGV[2] expected cursor   ARGV[3] expected started (0|1)
-- ARGV[4] next cursor   ARGV[5] next started (0|1)   ARGV[6] next ended (0|1)   ARGV[7] now (ms)
-- ARGV[8] ms an ended stream is kept   ARGV[9] key base
-- ARGV[10..] quadruplets: event id, type, item seq ('' if none), created_at
-- Returns 1 moved, 0 the stream is missing, ended or elsewhere (nothing written).
local s = redis.call('HMGET', KEYS[1], 'cursor', 'started', 'ended', 'events')
if not s[1] or s[3] == '1' or s[1] ~= ARGV[2] or s[2] ~= ARGV[3] then return 0 end
local events = tonumber(s[4] or '0')
local added = 0
for i = 10, #ARGV, 4 do
  local dk = ARGV[9] .. 'd:' .. ARGV[i]
  if redis.call('EXISTS', dk) == 0 then
    local pos = events + added
    redis.call('HSET', dk, 'crawl', ARGV[1], 'type', ARGV[i + 1], 'seq', ARGV[i + 2], 'created_at', ARGV[i + 3], 'attempt', 0, 'pos', pos)
    redis.call('ZADD', KEYS[3], ARGV[7], ARGV[i])
    redis.call('HSET', KEYS[4], pos, cjson.encode({ id = ARGV[i], type = ARGV[i + 1], seq = tonumber(ARGV[i + 2]), created_at = ARGV[i + 3],
      status = 'pending', attempts = 0, next_attempt_at = tonumber(ARGV[7]) }))
    added = added + 1
  end
end
redis.call('HSET', KEYS[1], 'cursor', ARGV[4], 'started', ARGV[5], 'ended', ARGV[6])
if added > 0 then
  redis.call('HINCRBY', KEYS[1], 'events', added)
  redis.call('HINCRBY', KEYS[1], 'pending', added)
end
if ARGV[6] == '1' then
  redis.call('SREM', KEYS[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  redis.call('PEXPIRE', KEYS[4], ARGV[8])
end
return 1
