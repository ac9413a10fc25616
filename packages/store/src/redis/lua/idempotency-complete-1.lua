-- Stores the response of a claimed idempotency key for replay.
-- KEYS[1]  idempotency hash
-- ARGV[1]  fingerprint (a claim held by another fingerprint is left alone)
-- ARGV[2]  HTTP status   ARGV[3] response body   ARGV[4] time to keep it, milliseconds
-- Returns  1 stored, 0 left alone
local f = redis.call('HGET', KEYS[1], 'f')
if f and f ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'f', ARGV[1], 'status', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
