-- Extends leases still held by the caller.
-- KEYS[1] leases zset   ARGV[1] new expiry (ms)   ARGV[2..] lease members
-- Returns the members that are no longer held.
local lost = {}
for i = 2, #ARGV do
  if redis.call('ZADD', KEYS[1], 'XX', 'CH', ARGV[1], ARGV[i]) == 0 and not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    lost[#lost + 1] = ARGV[i]
  end
end
return lost
