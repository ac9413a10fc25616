-- Gives back one request counted in a slot of a rate-limit window (an idempotent replay), if it is still there.
-- KEYS[1]  window hash of the (team, class): field = slot second, value = requests counted in it
-- ARGV[1]  slot second the request was counted in
-- Returns  1 when a request was given back, 0 when the slot had already left the window
local c = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if c <= 0 then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
return 1
