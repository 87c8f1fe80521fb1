-- Reads a record as stored, expired or not, with this server's clock.
-- KEYS[1]: the record.
-- Answers {now ms, status, fingerprint, token, locked_until, created_at, completed_at, expires_at,
-- response_status, response_headers, response_body, attempts, last_failure, last_failure_at};
-- status is nil when there is no record.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return {now, unpack(redis.call('HMGET', KEYS[1], 'status', 'fingerprint', 'token', 'locked_until',
  'created_at', 'completed_at', 'expires_at', 'response_status', 'response_headers', 'response_body', 'attempts',
  'last_failure', 'last_failure_at'))}
