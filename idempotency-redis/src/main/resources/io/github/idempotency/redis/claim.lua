-- Claims an idempotency key in one step, or answers the record that holds it. References attached
-- to the key are fields 'ref:<name>:<value>' of its record.
-- KEYS[1]: the record. ARGV: fingerprint, new fencing token, lease ms, TTL ms.
-- Answers {1, taken_over, attempt} when the key is claimed; otherwise {0, lease remaining ms,
-- status, fingerprint, token, locked_until, created_at, completed_at, expires_at, response_status,
-- response_headers, response_body, attempts, last_failure, last_failure_at}. Times are epoch
-- milliseconds by this server's clock.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local record = redis.call('HMGET', KEYS[1], 'status', 'fingerprint', 'token', 'locked_until', 'created_at',
  'completed_at', 'expires_at', 'response_status', 'response_headers', 'response_body', 'attempts',
  'last_failure', 'last_failure_at')
local taken_over = 0
local attempt = 1
local last_failure = false
local last_failure_at = false
if record[1] then
  local in_progress = record[1] == 'IN_PROGRESS'
  local locked_until = tonumber(record[4])
  local lease_ran_out = in_progress and locked_until ~= nil and locked_until <= now
  -- A record in progress under a live lease keeps its key past its expiry: the TTL bounds how
  -- long a response is replayed, never how long an operation may run.
  local expired = tonumber(record[7]) <= now and ((not in_progress) or lease_ran_out)
  if not expired then
    if record[1] == 'RELEASED' then
      -- Released after a transient failure: claimed as if absent, one attempt more.
      attempt = (tonumber(record[11]) or 1) + 1
      last_failure = record[12]
      last_failure_at = record[13]
    elseif lease_ran_out and record[2] == ARGV[1] then
      taken_over = 1
      attempt = (tonumber(record[11]) or 1) + 1
      last_failure = 'lease expired'
      last_failure_at = string.format('%.0f', now)
    else
      local remaining = 0
      if in_progress and locked_until ~= nil and locked_until > now then
        remaining = locked_until - now
      end
      return {0, remaining, unpack(record)}
    end
  else
    -- An expired record goes, with the references attached to it: a new request.
    redis.call('DEL', KEYS[1])
  end
end
-- A released or taken-over record keeps its references (ref:* fields); what its attempt stored goes.
redis.call('HDEL', KEYS[1], 'completed_at', 'response_status', 'response_headers', 'response_body', 'last_failure',
  'last_failure_at')
local locked_until = now + tonumber(ARGV[3])
local expires_at = now + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'status', 'IN_PROGRESS', 'fingerprint', ARGV[1], 'token', ARGV[2],
  'locked_until', string.format('%.0f', locked_until), 'created_at', string.format('%.0f', now),
  'expires_at', string.format('%.0f', expires_at), 'attempts', attempt)
if last_failure_at then
  redis.call('HSET', KEYS[1], 'last_failure_at', last_failure_at)
  if last_failure then
    redis.call('HSET', KEYS[1], 'last_failure', last_failure)
  end
end
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', math.max(locked_until, expires_at)))
return {1, taken_over, attempt}
