-- Records the results of leased pages and admits their links, atomically. One call carries one or more
-- completions (a worker sends those that came due while its previous call was out together) and applies them in
-- order, each exactly as a call of its own would: the same leases, items order, page cap, dedup and counters.
-- KEYS[1] meta hash   KEYS[2] leases zset   KEYS[3] seen set   KEYS[4] items list
-- ARGV[1] key base   ARGV[2] now (ISO)   ARGV[3] lease expiry to restore when credit is short (ms)
-- ARGV[4] the crawl's billing mode as the caller knows it (set at creation, never changed), or '' to read it
-- ARGV[5..] per completion: lease member, kind (delivered | failed | blocked), item JSON or reason, link count n,
--           then n triplets: normalized url, host, request JSON (in scope, within depth, deduplicated by the caller)
-- Returns per completion, in order, a code, seq (-1 if none), finished (0|1), k, then k new hosts:
--   code 1 accepted; 0 lease lost or crawl ended (a held lease of an ended crawl counts as dropped);
--   -1 enforce mode and no prepaid credit: nothing recorded, lease kept.
--- @include "includes/crawl-status"
local done = {}
local urls = {}
local i = 5
while i <= #ARGV do
  local n = tonumber(ARGV[i + 3])
  done[#done + 1] = { m = ARGV[i], kind = ARGV[i + 1], val = ARGV[i + 2], from = i + 4, n = n, off = #urls }
  for j = 0, n - 1 do urls[#urls + 1] = ARGV[i + 4 + 3 * j] end
  i = i + 4 + 3 * n
end
local members = {}
for k, c in ipairs(done) do members[k] = c.m end

-- unpack() is bounded by Lua's stack: long lists go to Redis in slices (a page may carry thousands of links).
-- Returns the slices' replies joined (list replies), the first slice's reply and the last's (integer replies).
local SLICE = 1000
local function sliced(cmd, key, list)
  local results = {}
  local first, last
  for a = 1, #list, SLICE do
    local r = redis.call(cmd, key, unpack(list, a, math.min(a + SLICE - 1, #list)))
    if type(r) == 'table' then
      for _, v in ipairs(r) do results[#results + 1] = v end
    elseif a == 1 then
      first = r
    end
    last = r
  end
  return results, first, last
end

local out = {}
local function refuse(code)
  for _ = 1, #done do
    out[#out + 1] = code; out[#out + 1] = -1; out[#out + 1] = 0; out[#out + 1] = 0
  end
  return out
end

-- Which leases are held: one completion asks ZREM itself (its lease goes back if credit is short); several ask
-- ZMSCORE once and remove the accepted ones together (removeHeld).
local single = #done == 1
local function heldLeases()
  local held = {}
  if single then
    held[1] = redis.call('ZREM', KEYS[2], members[1]) == 1
  else
    local scores = sliced('ZMSCORE', KEYS[2], members)
    for k = 1, #done do held[k] = scores[k] ~= false end
  end
  return held
end
local function removeHeld(removed)
  if not single and #removed > 0 then sliced('ZREM', KEYS[2], removed) end
end

-- What the accepted completions record, and the answer.
local items = {}
local itemAt = {}
local reasons = {}
local reasonOrder = {}
local function record(k, c)
  if c.kind == 'delivered' then
    items[#items + 1] = c.val
    itemAt[k] = #items
  else
    local f = (c.kind == 'failed' and 'fail:' or 'block:') .. c.val
    if not reasons[f] then
      reasons[f] = 0
      reasonOrder[#reasonOrder + 1] = f
    end
    reasons[f] = reasons[f] + 1
  end
end
local firstSeq = 0
local length = -1
local function writeRecords()
  if #items > 0 then
    local _, _, last = sliced('RPUSH', KEYS[4], items)
    length = last
    firstSeq = length - #items
  end
  for _, f in ipairs(reasonOrder) do redis.call('HINCRBY', KEYS[1], f, reasons[f]) end
end
-- The crawl has nothing queued or in flight any more: it ends, completed when it delivered a page.
local function finishFields(fields)
  fields[#fields + 1] = 'completed_at'
  fields[#fields + 1] = ARGV[2]
  fields[#fields + 1] = 'status'
  if length < 0 then length = redis.call('LLEN', KEYS[4]) end
  if length > 0 then
    fields[#fields + 1] = 'completed'
  else
    fields[#fields + 1] = 'failed'
    fields[#fields + 1] = 'failure'
    fields[#fields + 1] = '{"code":"no_pages_delivered","message":"no page of the crawl could be delivered"}'
  end
  return fields
end
local function answer(codes, finishedAt, newHosts)
  for k = 1, #done do
    local hosts = newHosts[k] or {}
    out[#out + 1] = codes[k]
    out[#out + 1] = itemAt[k] and (firstSeq + itemAt[k] - 1) or -1
    out[#out + 1] = finishedAt == k and 1 or 0
    out[#out + 1] = #hosts
    for _, h in ipairs(hosts) do out[#out + 1] = h end
  end
  return out
end

if ARGV[4] ~= '' and ARGV[4] ~= 'enforce' and #urls == 0 then
  -- The common call (no link to admit, no credit to check) reads nothing of the meta hash: a held lease means a
  -- live crawl (a terminal status drops every lease: crawl-transition-3.lua), and HINCRBY of `open` tells the end.
  local held = heldLeases()
  local codes = {}
  local taken = {}
  local removed = {}
  for k, c in ipairs(done) do
    codes[k] = 0
    if held[k] and not taken[c.m] then
      taken[c.m] = true
      removed[#removed + 1] = c.m
      codes[k] = 1
      record(k, c)
    end
  end
  local n = #removed
  if n == 0 then return answer(codes, 0, {}) end
  removeHeld(removed)
  local open = redis.call('HINCRBY', KEYS[1], 'open', -n)
  if open < 0 then
    -- Leases held by a crawl that is not live (written before terminal statuses dropped them): dropped, as the
    -- full rule below does; a meta hash this made from nothing is removed again.
    redis.call('HINCRBY', KEYS[1], 'open', n)
    if redis.call('HLEN', KEYS[1]) == 1 then
      redis.call('DEL', KEYS[1])
    else
      redis.call('HINCRBY', KEYS[1], 'dropped', n)
    end
    return refuse(0)
  end
  writeRecords()
  local finishedAt = 0
  if open == 0 then
    -- Only the last accepted completion can leave nothing open (each earlier one still had a later lease out).
    for k = 1, #done do if codes[k] == 1 then finishedAt = k end end
    redis.call('HSET', KEYS[1], unpack(finishFields({})))
  end
  return answer(codes, finishedAt, {})
end

local m = redis.call('HMGET', KEYS[1], 'status', 'billing', 'max_pages', 'admitted', 'open', 'budget')
local status = m[1]
if not status then return refuse(0) end
if not crawlIsLive(status) then
  local dropped = 0
  for a = 1, #members, SLICE do dropped = dropped + redis.call('ZREM', KEYS[2], unpack(members, a, math.min(a + SLICE - 1, #members))) end
  if dropped > 0 then redis.call('HINCRBY', KEYS[1], 'dropped', dropped) end
  return refuse(0)
end
local held = heldLeases()
local billing = m[2]
local maxp = tonumber(m[3])
local admitted = tonumber(m[4])
local open = tonumber(m[5])
local budget = tonumber(m[6])
local startAdmitted = admitted
local known = {}
if admitted < maxp and #urls > 0 then known = sliced('SMISMEMBER', KEYS[3], urls) end
local live = true
local taken = {}
local removed = {}
local restore = {}
local dropped = 0
local fresh = {}
local admittedNow = {}
local byHost = {}
local hostOrder = {}
local firstBy = {}
local codes = {}
local finishedAt = 0
for k, c in ipairs(done) do
  local code = 0
  if not held[k] or taken[c.m] then
    code = 0
  elseif not live then
    -- Ended earlier in this call: as its own call would, the lease is dropped.
    taken[c.m] = true
    removed[#removed + 1] = c.m
    dropped = dropped + 1
  elseif c.kind == 'delivered' and billing == 'enforce' and budget <= 0 then
    code = -1
    restore[#restore + 1] = ARGV[3]
    restore[#restore + 1] = c.m
  else
    code = 1
    taken[c.m] = true
    removed[#removed + 1] = c.m
    if c.kind == 'delivered' and billing == 'enforce' then budget = budget - 1 end
    record(k, c)
    local added = 0
    for j = 0, c.n - 1 do
      if admitted >= maxp then break end
      local at = c.from + 3 * j
      local url = ARGV[at]
      if known[c.off + j + 1] == 0 and not admittedNow[url] then
        admittedNow[url] = true
        fresh[#fresh + 1] = url
        local h = ARGV[at + 1]
        if not byHost[h] then
          byHost[h] = {}
          hostOrder[#hostOrder + 1] = h
          firstBy[h] = k
        end
        local list = byHost[h]
        list[#list + 1] = ARGV[at + 2]
        admitted = admitted + 1
        added = added + 1
      end
    end
    open = open + added - 1
    if open == 0 then
      live = false
      finishedAt = k
    end
  end
  codes[k] = code
end
removeHeld(removed)
if single and codes[1] == -1 then redis.call('ZADD', KEYS[2], ARGV[3], members[1]) end
if not single and #restore > 0 then sliced('ZADD', KEYS[2], restore) end
writeRecords()
if dropped > 0 then redis.call('HINCRBY', KEYS[1], 'dropped', dropped) end
local newHosts = {}
if #fresh > 0 then
  sliced('SADD', KEYS[3], fresh)
  for _, h in ipairs(hostOrder) do
    local list = byHost[h]
    -- The queue was empty before when the first slice's push is all it holds.
    local _, first = sliced('RPUSH', ARGV[1] .. 'q:' .. h, list)
    if first == math.min(#list, SLICE) then
      if redis.call('HSETNX', ARGV[1] .. 'hosts', h, 1) == 1 then
        local by = firstBy[h]
        newHosts[by] = newHosts[by] or {}
        table.insert(newHosts[by], h)
      end
    end
  end
end
local accepted = false
for k = 1, #done do if codes[k] == 1 then accepted = true end end
if accepted then
  local fields = { 'open', open }
  if admitted ~= startAdmitted then
    fields[#fields + 1] = 'admitted'
    fields[#fields + 1] = admitted
  end
  if billing == 'enforce' and budget ~= tonumber(m[6]) then
    fields[#fields + 1] = 'budget'
    fields[#fields + 1] = budget
  end
  if finishedAt > 0 then finishFields(fields) end
  redis.call('HSET', KEYS[1], unpack(fields))
end
return answer(codes, finishedAt, newHosts)
