-- Extends leases still held by the caller.
-- KEYS[1] leases zset   ARGV[1] new expiry (ms)   ARGV[2..] lease members
-- Returns the members that are no longer held. Two commands whatever the number of leases (one ZMSCORE, one
-- ZADD XX), in slices bounded by Lua's stack.
local SLICE = 500
local lost = {}
for a = 2, #ARGV, SLICE do
  local b = math.min(a + SLICE - 1, #ARGV)
  local scores = redis.call('ZMSCORE', KEYS[1], unpack(ARGV, a, b))
  local zargs = {}
  for k = a, b do
    if scores[k - a + 1] then
      zargs[#zargs + 1] = ARGV[1]
      zargs[#zargs + 1] = ARGV[k]
    else
      lost[#lost + 1] = ARGV[k]
    end
  end
  if #zargs > 0 then redis.call('ZADD', KEYS[1], 'XX', unpack(zargs)) end
end
return lost
