-- Reads the metadata of a record for an operator, without its response body.
-- KEYS[1]: the record.
-- Answers {now ms, body bytes, status, fingerprint, token, locked_until, created_at, completed_at,
-- expires_at, response_status, attempts, last_failure, last_failure_at}; status is nil when there
-- is no record.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return {now, redis.call('HSTRLEN', KEYS[1], 'response_body'), unpack(redis.call('HMGET', KEYS[1], 'status',
  'fingerprint', 'token', 'locked_until', 'created_at', 'completed_at', 'expires_at', 'response_status',
  'attempts', 'last_failure', 'last_failure_at'))}
