-- Opens a crawl's webhook stream.
-- KEYS[1] stream hash   KEYS[2] open streams set
-- ARGV[1] crawl id   ARGV[2] config JSON
-- Returns 1 opened, 0 it already existed (nothing changed).
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'config', ARGV[2], 'cursor', 0, 'started', 0, 'ended', 0, 'events', 0, 'delivered', 0, 'failed', 0, 'pending', 0, 'retries', 0)
redis.call('SADD', KEYS[2], ARGV[1])
return 1
