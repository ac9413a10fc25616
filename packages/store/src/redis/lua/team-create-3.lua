-- Creates a team unless one of that name exists: the name, the record and the list entry are written together, so
-- concurrent creations of one name make one team and a listed team is always readable.
-- KEYS[1]  team name -> team id
-- KEYS[2]  the new team's record (JSON)
-- KEYS[3]  sorted set of every team's position (equal scores, read BYLEX)
-- ARGV[1]  new team id   ARGV[2] new team record   ARGV[3] new team's position
-- Returns  the id of the team of that name: ARGV[1] when created now, else the existing team's (nothing written)
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], 0, ARGV[3])
return ARGV[1]
