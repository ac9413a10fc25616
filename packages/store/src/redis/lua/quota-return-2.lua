-- Gives back units taken in a month, once per mark, never below zero (src/quota-rule.ts is the memory twin).
-- KEYS[1]  the team's usage hash of the month: field = resource, value = units counted
-- KEYS[2]  the team's give-back marks of the month: set of "<resource>\n<mark>"
-- ARGV[1]  resource
-- ARGV[2]  units to give back
-- ARGV[3]  mark (e.g. the run id): one give-back per mark
-- ARGV[4]  when the month's usage may be forgotten, ms since the epoch (the marks go with it)
-- Returns  1 given back, 0 nothing (already given back under this mark, or the month's usage is forgotten)
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local member = ARGV[1] .. '\n' .. ARGV[3]
if redis.call('SADD', KEYS[2], member) == 0 then return 0 end
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
local left = math.max(0, tonumber(raw) - tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], left)
return 1
