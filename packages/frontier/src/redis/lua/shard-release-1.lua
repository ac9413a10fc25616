-- Gives up a shard lease if the caller owns it.
-- KEYS[1] shard owner key   ARGV[1] worker id
-- Returns 1 released, 0 not the owner.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
