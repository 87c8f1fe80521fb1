-- Attaches a reference to a key: a field of its record, which lives and expires with it.
-- KEYS[1]: the record. ARGV: the field, 'ref:<name>:<value>'.
-- Answers 1 when attached (or attached before), 0 when there is no record.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], '1')
return 1
