-- Settles a running job held under the given lease: completed, failed, or back to queued for a retry.
-- KEYS[1]  job hash   KEYS[2] leases zset   KEYS[3] due zset
-- KEYS[4]  expiring zset of the job index (member "<index key>\n<team id>", score = forget time ms)
-- ARGV[1]  job id   ARGV[2] owner   ARGV[3] attempt (fences the lease)   ARGV[4] 'complete' | 'fail' | 'retry'
-- ARGV[5]  now (ISO)   ARGV[6] result JSON | error JSON | not-before ms of the retry   ARGV[7] cached ('1' / '0')
-- ARGV[8]  ms a completed or failed job is kept ('' = for ever)   ARGV[9] when it is forgotten (epoch ms)
-- Returns  1 settled, 0 the lease is not held any more (expired and taken over, or already settled)
local v = redis.call('HMGET', KEYS[1], 'state', 'owner', 'attempts')
if v[1] ~= 'running' or v[2] ~= ARGV[2] or v[3] ~= ARGV[3] then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[4] == 'complete' then
  redis.call('HSET', KEYS[1], 'state', 'completed', 'result', ARGV[6], 'cached', ARGV[7], 'completed_at', ARGV[5])
elseif ARGV[4] == 'fail' then
  redis.call('HSET', KEYS[1], 'state', 'failed', 'error', ARGV[6], 'completed_at', ARGV[5])
else
  redis.call('HSET', KEYS[1], 'state', 'queued')
  redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1])
end
redis.call('HSET', KEYS[1], 'owner', '', 'lease_until', '', 'updated_at', ARGV[5])
if ARGV[4] ~= 'retry' and ARGV[8] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  local ix = redis.call('HMGET', KEYS[1], 'index', 'team_id')
  if ix[1] then redis.call('ZADD', KEYS[4], ARGV[9], ix[1] .. '\n' .. ix[2]) end
end
return 1
