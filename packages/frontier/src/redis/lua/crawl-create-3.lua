-- Creates a crawl and admits its seeds (seeds count against max_pages).
-- KEYS[1] meta hash   KEYS[2] seen set   KEYS[3] hosts hash (host -> 1)
-- ARGV[1] key base of the crawl ("<prefix>crawl:{<id>}:")   ARGV[2] plan JSON   ARGV[3] max_pages
-- ARGV[4] billing mode   ARGV[5..] triplets: normalized url, host, request JSON
-- Returns the number of seeds admitted; an error if the crawl exists.
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('ERR crawl exists') end
local maxp = tonumber(ARGV[3])
local admitted = 0
for i = 5, #ARGV, 3 do
  if admitted < maxp and redis.call('SADD', KEYS[2], ARGV[i]) == 1 then
    redis.call('RPUSH', ARGV[1] .. 'q:' .. ARGV[i + 1], ARGV[i + 2])
    redis.call('HSET', KEYS[3], ARGV[i + 1], 1)
    admitted = admitted + 1
  end
end
redis.call('HSET', KEYS[1], 'plan', ARGV[2], 'status', 'queued', 'open', admitted, 'admitted', admitted,
  'budget', 0, 'dropped', 0, 'max_pages', maxp, 'billing', ARGV[4], 'finalized', 0)
return admitted
