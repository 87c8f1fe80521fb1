-- Pushes the lease of a claimed key to now plus a duration, compare-and-set on its fencing token.
-- KEYS[1]: the record. ARGV: token, lease ms.
-- Answers 1 when extended, 0 when the token no longer holds the key in progress.
local record = redis.call('HMGET', KEYS[1], 'status', 'token', 'expires_at')
if record[1] ~= 'IN_PROGRESS' or record[2] ~= ARGV[1] then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local locked_until = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'locked_until', string.format('%.0f', locked_until))
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', math.max(locked_until, tonumber(record[3]))))
return 1
