-- Takes the one token of the shared upstream bucket, or tells how long until it is back.
-- Time is Redis's own clock, so runners on machines whose clocks disagree still share one schedule.
-- KEYS[1]  when the next token is available (ms since the epoch, Redis clock)
-- ARGV[1]  refill interval in ms (window / requests per window; may be fractional)
-- Returns  0 when the token was taken (the caller may send one request now), else ms to wait (>= 1)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
if nextAt > now then return math.max(1, math.ceil(nextAt - now)) end
local interval = tonumber(ARGV[1])
redis.call('SET', KEYS[1], tostring(now + interval), 'PX', math.ceil(interval) + 1000)
return 0
