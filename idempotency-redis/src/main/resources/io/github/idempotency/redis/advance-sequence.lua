-- Raises the highest processed sequence number of a scope, if the number given is at least as high
-- or the scope is unknown; otherwise changes nothing. An accepted number keeps the scope for the
-- TTL from now (native expiry), by this server's clock.
-- KEYS[1]: the scope. ARGV: sequence number (decimal, no sign, no leading zeros), TTL ms.
-- Answers {1, number} when accepted, {0, highest} when refused; numbers as decimal text, compared
-- exactly as such, so that no number loses precision as a Lua double.
local highest = redis.call('HGET', KEYS[1], 'highest')
local number = ARGV[1]
if highest and (#highest > #number or (#highest == #number and highest > number)) then
  return {0, highest}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('HSET', KEYS[1], 'highest', number, 'updated_at', string.format('%.0f', now))
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', now + tonumber(ARGV[2])))
return {1, number}
