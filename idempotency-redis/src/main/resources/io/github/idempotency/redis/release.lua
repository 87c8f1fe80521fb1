-- Gives a claimed key up so that a retry runs again, compare-and-set on its fencing token: the
-- record becomes RELEASED, which a claim treats as absent, and keeps its attempts, the failure and
-- its time until it expires, as long after the release as its claim's TTL.
-- KEYS[1]: the record. ARGV: token, failure (an exception class name or a status; empty if not told).
-- Answers 1 when released, 0 when the token no longer holds the key in progress.
local record = redis.call('HMGET', KEYS[1], 'status', 'token', 'created_at', 'expires_at')
if record[1] ~= 'IN_PROGRESS' or record[2] ~= ARGV[1] then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expires_at = now + (tonumber(record[4]) - tonumber(record[3]))
redis.call('HDEL', KEYS[1], 'locked_until', 'last_failure')
redis.call('HSET', KEYS[1], 'status', 'RELEASED', 'last_failure_at', string.format('%.0f', now), 'expires_at',
  string.format('%.0f', expires_at))
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'last_failure', ARGV[2])
end
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', expires_at))
return 1
