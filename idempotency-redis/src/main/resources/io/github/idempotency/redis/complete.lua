-- Stores the response of a claimed key, compare-and-set on its fencing token.
-- KEYS[1]: the record. ARGV: token, response status, encoded headers, body, TTL ms.
-- Answers 1 when stored, 0 when the token no longer holds the key in progress.
local record = redis.call('HMGET', KEYS[1], 'status', 'token')
if record[1] ~= 'IN_PROGRESS' or record[2] ~= ARGV[1] then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expires_at = now + tonumber(ARGV[5])
redis.call('HDEL', KEYS[1], 'locked_until')
redis.call('HSET', KEYS[1], 'status', 'COMPLETED', 'response_status', ARGV[2], 'response_headers', ARGV[3],
  'response_body', ARGV[4], 'completed_at', string.format('%.0f', now), 'expires_at',
  string.format('%.0f', expires_at))
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', expires_at))
return 1
