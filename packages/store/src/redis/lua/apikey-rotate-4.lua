-- Rotates an API key: revokes the old record and stores its successor, only when the old record is still the one
-- the caller read (compare and set), so of concurrent rotations (or a revocation) of one key exactly one wins.
-- KEYS[1]  old key record (JSON, by its secret's hash)
-- KEYS[2]  new key record (JSON, by its secret's hash)
-- KEYS[3]  new key id -> its secret's hash
-- KEYS[4]  set of the team's key ids
-- ARGV[1]  old record as read   ARGV[2] old record revoked   ARGV[3] new record   ARGV[4] new secret's hash
-- ARGV[5]  new key id
-- Returns  1 rotated; 0 the old record changed since it was read (nothing written)
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('SET', KEYS[3], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[5])
return 1
