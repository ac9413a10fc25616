-- Drops an uncompleted claim so the same key can be retried at once.
-- KEYS[1]  idempotency hash
-- ARGV[1]  fingerprint of the claim
-- Returns  1 dropped, 0 nothing to drop
local v = redis.call('HMGET', KEYS[1], 'f', 'status')
if v[1] == ARGV[1] and not v[2] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
