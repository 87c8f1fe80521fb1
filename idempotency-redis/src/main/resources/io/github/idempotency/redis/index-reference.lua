-- Indexes a reference: the sorted set of the records it is attached to, by when it was first
-- attached, kept at least the given TTL from now by this server's clock.
-- KEYS[1]: the index of the reference. ARGV: the record's Redis key, TTL ms.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], 'NX', now, ARGV[1])
local expiry = now + tonumber(ARGV[2])
if redis.call('PEXPIRETIME', KEYS[1]) < expiry then
  redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', expiry))
end
return 1
