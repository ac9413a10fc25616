-- Pushes the next token of the shared upstream bucket at least ARGV[1] ms into the future (after a 429 or a block).
-- KEYS[1]  when the next token is available (ms since the epoch, Redis clock)
-- ARGV[1]  hold in ms
-- Returns  the ms until the next token
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local nextAt = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], tostring(nextAt), 'PX', math.ceil(nextAt - now) + 1000)
return math.ceil(nextAt - now)
