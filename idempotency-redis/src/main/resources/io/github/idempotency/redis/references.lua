-- Reads the references attached to a key, without the rest of its record.
-- KEYS[1]: the record.
-- Answers the fields 'ref:<name>:<value>'.
local references = {}
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 4) == 'ref:' then
    references[#references + 1] = field
  end
end
return references
