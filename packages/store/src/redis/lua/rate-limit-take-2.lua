-- One rate-limit decision for a (team, route class): the team's override or the default, the sliding window of
-- one-second slots (the current second and the 60 before it) and the count, in one atomic step. The same algorithm
-- as src/rate-limit-window.ts (the Kv backend); the conformance suite pins both.
-- KEYS[1]  window hash of the (team, class): field = slot second (integer string), value = requests counted in it
-- KEYS[2]  the team's overrides hash: field = route class, value = requests per minute (0 = unlimited)
-- ARGV[1]  route class
-- ARGV[2]  default requests per minute (0 = unlimited)
-- ARGV[3]  now, in milliseconds since the epoch (the caller's clock)
-- ARGV[4]  window key lifetime in milliseconds (longer than the 61 slots; idle windows vanish)
-- Returns  {allowed (1|0), limit (0 = unlimited: nothing counted), remaining, retry_after_s, reset_s, slot (-1: none)}
local limit = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or ARGV[2])
if limit == 0 then return {1, 0, 0, 0, 0, -1} end
local now = tonumber(ARGV[3])
local cur = math.floor(now / 1000)
local oldest = cur - 60
local raw = redis.call('HGETALL', KEYS[1])
local slots = {}
local stale = {}
local total = 0
for i = 1, #raw, 2 do
  local s = tonumber(raw[i])
  if s < oldest then
    stale[#stale + 1] = raw[i]
  else
    local c = tonumber(raw[i + 1])
    slots[#slots + 1] = {s, c}
    total = total + c
  end
end
if #stale > 0 then redis.call('HDEL', KEYS[1], unpack(stale)) end
table.sort(slots, function(a, b) return a[1] < b[1] end)
local function leaves(sec)
  return math.max(1, math.ceil(((sec + 61) * 1000 - now) / 1000))
end
if total < limit then
  redis.call('HINCRBY', KEYS[1], string.format('%d', cur), 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  local first = cur
  if #slots > 0 and slots[1][1] < cur then first = slots[1][1] end
  return {1, limit, math.max(0, limit - total - 1), 0, leaves(first), cur}
end
local left = total
local retry = leaves(cur)
for i = 1, #slots do
  left = left - slots[i][2]
  if left < limit then
    retry = leaves(slots[i][1])
    break
  end
end
return {0, limit, 0, retry, retry, -1}
