-- Records a charge once per (run, reason), refusing in enforce mode when credit is short.
-- KEYS[1]  team balance (integer string)
-- KEYS[2]  set of charged "<run_id>\n<reason>" members
-- KEYS[3]  list of ledger entries (JSON, newest last)
-- ARGV[1]  member   ARGV[2] units   ARGV[3] '1' enforce / '0' shadow   ARGV[4] entry JSON
-- Returns  {ok (1|0), balance}
local balance = tonumber(redis.call('GET', KEYS[1]) or '0')
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return {1, balance} end
local units = tonumber(ARGV[2])
if ARGV[3] == '1' and balance < units then return {0, balance} end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('RPUSH', KEYS[3], ARGV[4])
return {1, redis.call('DECRBY', KEYS[1], units)}
