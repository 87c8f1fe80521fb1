-- An operator's release of a key left in progress: deleted when its lease ran out, or with force.
-- KEYS[1]: the record. ARGV: '1' to release a live lease too.
-- Answers 1 when released, 0 when there is no record, 2 when it is completed, 3 when its lease is
-- live and force was not given, 4 when a transient failure released it already.
local record = redis.call('HMGET', KEYS[1], 'status', 'locked_until')
if not record[1] then
  return 0
end
if record[1] == 'COMPLETED' then
  return 2
end
if record[1] == 'RELEASED' then
  return 4
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if ARGV[1] ~= '1' and tonumber(record[2]) > now then
  return 3
end
redis.call('DEL', KEYS[1])
return 1
