-- Politeness: moves a host's "not before" time later, never earlier.
-- KEYS[1] host slow key   ARGV[1] until (ms)   ARGV[2] ttl (ms)
-- Returns the effective until.
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur >= tonumber(ARGV[1]) then return cur end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return tonumber(ARGV[1])
