-- Drops the entries of records whose forget time has come from a newest-first record index.
-- KEYS[1] all records zset (score 0, member = index key "<15-digit created ms>:<id>")
-- KEYS[2] expiring zset (score = forget time ms, member = "<index key>\n<team id>")
-- ARGV[1] now (ms)   ARGV[2] most entries to drop   ARGV[3] key base of the per-team zsets (the team id is appended;
--         same hash tag as KEYS)
-- Returns the number of entries dropped.
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, m in ipairs(due) do
  local nl = string.find(m, '\n', 1, true)
  local key = string.sub(m, 1, nl - 1)
  redis.call('ZREM', KEYS[1], key)
  redis.call('ZREM', ARGV[3] .. string.sub(m, nl + 1), key)
  redis.call('ZREM', KEYS[2], m)
end
return #due
