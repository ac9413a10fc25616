-- Reads a page of a crawl's delivery log, with the stream's state, in one step.
-- KEYS[1] stream hash   KEYS[2] the crawl's delivery log hash
-- ARGV[1] first position   ARGV[2] how many
-- Returns {events, ended (0|1), record JSON...} (records present from the first position on), or false when the
-- crawl has no stream.
local s = redis.call('HMGET', KEYS[1], 'config', 'events', 'ended')
if not s[1] then return false end
local out = { tonumber(s[2] or '0'), tonumber(s[3] or '0') }
local from = tonumber(ARGV[1])
local last = math.min(from + tonumber(ARGV[2]), out[1]) - 1
if last >= from then
  local fields = {}
  for pos = from, last do fields[#fields + 1] = pos end
  for _, raw in ipairs(redis.call('HMGET', KEYS[2], unpack(fields))) do
    if raw then out[#out + 1] = raw end
  end
end
return out
