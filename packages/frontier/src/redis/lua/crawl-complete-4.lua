-- Records the result of a leased page and admits its links, atomically.
-- KEYS[1] meta hash   KEYS[2] leases zset   KEYS[3] seen set   KEYS[4] items list
-- ARGV[1] lease member   ARGV[2] kind: delivered | failed | blocked   ARGV[3] item JSON or reason
-- ARGV[4] key base   ARGV[5] now (ISO)   ARGV[6] lease expiry to restore when credit is short (ms)
-- ARGV[7..] triplets: normalized url, host, request JSON (in scope, within depth, deduplicated by the caller)
-- Returns {1, seq (-1 if none), finished (0|1), new hosts...} accepted
--         {0} lease lost or crawl ended (a held lease of an ended crawl counts as dropped)
--         {-1} enforce mode and no prepaid credit: nothing recorded, lease kept
local m = redis.call('HMGET', KEYS[1], 'status', 'billing', 'max_pages', 'admitted', 'open', 'budget')
local status = m[1]
if not status then return {0} end
if status ~= 'queued' and status ~= 'running' and status ~= 'paused' then
  if redis.call('ZREM', KEYS[2], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'dropped', 1) end
  return {0}
end
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return {0} end
local fields = {}
local delivered = ARGV[2] == 'delivered'
if delivered and m[2] == 'enforce' then
  local budget = tonumber(m[6])
  if budget <= 0 then
    redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
    return {-1}
  end
  fields[#fields + 1] = 'budget'
  fields[#fields + 1] = budget - 1
end
local seq = -1
if delivered then
  seq = redis.call('RPUSH', KEYS[4], ARGV[3]) - 1
else
  local f = (ARGV[2] == 'failed' and 'fail:' or 'block:') .. ARGV[3]
  redis.call('HINCRBY', KEYS[1], f, 1)
end
local admitted = tonumber(m[4])
local room = tonumber(m[3]) - admitted
local newHosts = {}
local added = 0
if room > 0 and #ARGV >= 9 then
  local urls = {}
  for i = 7, #ARGV, 3 do urls[#urls + 1] = ARGV[i] end
  local known = redis.call('SMISMEMBER', KEYS[3], unpack(urls))
  local fresh = {}
  local byHost = {}
  local order = {}
  for j = 1, #urls do
    if added >= room then break end
    if known[j] == 0 then
      local i = 7 + (j - 1) * 3
      fresh[#fresh + 1] = ARGV[i]
      local h = ARGV[i + 1]
      if not byHost[h] then byHost[h] = {}; order[#order + 1] = h end
      local list = byHost[h]
      list[#list + 1] = ARGV[i + 2]
      added = added + 1
    end
  end
  if added > 0 then
    redis.call('SADD', KEYS[3], unpack(fresh))
    for _, h in ipairs(order) do
      local list = byHost[h]
      if redis.call('RPUSH', ARGV[4] .. 'q:' .. h, unpack(list)) == #list then
        if redis.call('HSETNX', ARGV[4] .. 'hosts', h, 1) == 1 then newHosts[#newHosts + 1] = h end
      end
    end
    fields[#fields + 1] = 'admitted'
    fields[#fields + 1] = admitted + added
  end
end
local open = tonumber(m[5]) + added - 1
fields[#fields + 1] = 'open'
fields[#fields + 1] = open
local finished = 0
if open == 0 then
  finished = 1
  fields[#fields + 1] = 'completed_at'
  fields[#fields + 1] = ARGV[5]
  fields[#fields + 1] = 'status'
  if redis.call('LLEN', KEYS[4]) > 0 then
    fields[#fields + 1] = 'completed'
  else
    fields[#fields + 1] = 'failed'
    fields[#fields + 1] = 'failure'
    fields[#fields + 1] = '{"code":"no_pages_delivered","message":"no page of the crawl could be delivered"}'
  end
end
redis.call('HSET', KEYS[1], unpack(fields))
local out = {1, seq, finished}
for _, h in ipairs(newHosts) do out[#out + 1] = h end
return out
