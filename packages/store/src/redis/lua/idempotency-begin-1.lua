-- Claims an idempotency key, or reports what already holds it.
-- KEYS[1]  idempotency hash (fields: f = body fingerprint, status, body once completed)
-- ARGV[1]  fingerprint of this request's body
-- ARGV[2]  lease in milliseconds for an uncompleted claim
-- Returns  {'started'} | {'conflict'} | {'in_progress'} | {'replay', status, body}
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'f', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'started'}
end
local v = redis.call('HMGET', KEYS[1], 'f', 'status', 'body')
if v[1] ~= ARGV[1] then return {'conflict'} end
if v[2] then return {'replay', v[2], v[3]} end
return {'in_progress'}
