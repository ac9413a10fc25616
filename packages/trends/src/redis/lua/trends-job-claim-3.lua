-- Takes the next search-trends job to run: first a running job whose lease expired (its runner died), else the
-- due queued job with the earliest not-before time. A job whose lease expired at its last attempt fails instead.
-- KEYS[1]  due zset (queued job ids, score = not-before ms)
-- KEYS[2]  leases zset (running job ids, score = lease end ms)
-- KEYS[3]  expiring zset of the job index (member "<index key>\n<team id>", score = forget time ms)
-- ARGV[1]  now (ms)   ARGV[2] lease end for the taken job (ms)   ARGV[3] owner (runner id)   ARGV[4] now (ISO)
-- ARGV[5]  max attempts   ARGV[6] job hash key base (the id is appended; same hash tag as KEYS)
-- ARGV[7]  error JSON for a job failed as worker_lost   ARGV[8] ms a failed job is kept ('' = for ever)
-- ARGV[9]  when such a failed job is forgotten (epoch ms)
-- Returns  the taken job's hash as a flat field/value list, or nil when nothing is due
local function take(id)
  local key = ARGV[6] .. id
  redis.call('ZADD', KEYS[2], ARGV[2], id)
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HSET', key, 'state', 'running', 'owner', ARGV[3], 'lease_until', ARGV[2], 'updated_at', ARGV[4])
  if redis.call('HGET', key, 'started_at') == '' then redis.call('HSET', key, 'started_at', ARGV[4]) end
  return redis.call('HGETALL', key)
end

-- Bounded: every pass either takes a job or removes one expired lease.
for _ = 1, 100 do
  local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1)
  if #expired == 0 then break end
  local id = expired[1]
  local key = ARGV[6] .. id
  if tonumber(redis.call('HGET', key, 'attempts') or '0') < tonumber(ARGV[5]) then return take(id) end
  redis.call('ZREM', KEYS[2], id)
  redis.call('HSET', key, 'state', 'failed', 'error', ARGV[7], 'owner', '', 'lease_until', '',
    'updated_at', ARGV[4], 'completed_at', ARGV[4])
  if ARGV[8] ~= '' then
    redis.call('PEXPIRE', key, ARGV[8])
    local ix = redis.call('HMGET', key, 'index', 'team_id')
    if ix[1] then redis.call('ZADD', KEYS[3], ARGV[9], ix[1] .. '\n' .. ix[2]) end
  end
end

local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZREM', KEYS[1], due[1])
return take(due[1])
