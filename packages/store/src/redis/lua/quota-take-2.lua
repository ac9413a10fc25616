-- One quota decision for a (team, resource, month): the team's limit, the check and the count in one atomic step.
-- The same rule as src/quota-rule.ts (the Kv backend); the conformance suite pins both.
-- KEYS[1]  the team's limits hash: field = resource, value = monthly limit (absent = unlimited)
-- KEYS[2]  the team's usage hash of the month: field = resource, value = units counted
-- ARGV[1]  resource
-- ARGV[2]  units to take (at least 1)
-- ARGV[3]  when the month's usage may be forgotten, ms since the epoch (PEXPIREAT)
-- Returns  {ok (1 taken | 0 refused, nothing counted), used after the decision, monthly limit (-1 = unlimited)}
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local monthly = -1
if raw then monthly = tonumber(raw) end
local used = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local units = tonumber(ARGV[2])
if monthly >= 0 and used + units > monthly then return {0, used, monthly} end
used = redis.call('HINCRBY', KEYS[2], ARGV[1], units)
redis.call('PEXPIREAT', KEYS[2], ARGV[3])
return {1, used, monthly}
