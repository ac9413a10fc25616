-- A crawl's pages per host: queued, leased, and when the oldest lease still out was taken.
-- KEYS[1] hosts hash (host -> 1)   KEYS[2] leases zset (member "<token>\n<host>\n<request JSON>")
-- ARGV[1] key base (host queues are ARGV[1] .. 'q:' .. host)
-- A token begins with its lease time in base 36 and a dot (src/lease-token.ts); a token without it adds no age.
-- Returns a flat list of quadruplets: host, queued, leased, oldest lease time in ms (-1 when none).
local loads = {}
local order = {}
local function load(h)
  local l = loads[h]
  if not l then
    l = {redis.call('LLEN', ARGV[1] .. 'q:' .. h), 0, -1}
    loads[h] = l
    order[#order + 1] = h
  end
  return l
end
for _, h in ipairs(redis.call('HKEYS', KEYS[1])) do load(h) end
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local a = string.find(m, '\n', 1, true)
  local b = string.find(m, '\n', a + 1, true)
  local l = load(string.sub(m, a + 1, b - 1))
  l[2] = l[2] + 1
  local dot = string.find(m, '.', 1, true)
  if dot and dot < a then
    local at = tonumber(string.sub(m, 1, dot - 1), 36)
    if at and (l[3] < 0 or at < l[3]) then l[3] = at end
  end
end
local out = {}
for _, h in ipairs(order) do
  local l = loads[h]
  out[#out + 1] = h
  out[#out + 1] = l[1]
  out[#out + 1] = l[2]
  out[#out + 1] = l[3]
end
return out
