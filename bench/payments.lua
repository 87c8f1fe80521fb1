-- wrk script for POST /payments (or BENCH_PATH with BENCH_BODY). BENCH_MODE selects the key pattern:
--   fresh  - a new key for every request (first executions)
--   replay - cycles over BENCH_KEYS keys shared by all connections (replays once warmed up)
--   storm  - all connections walk one key sequence, a new key every BENCH_STORM_RUN requests,
--            so that each key is hit by many concurrent duplicates
local mode = os.getenv("BENCH_MODE") or "fresh"
local prefix = os.getenv("BENCH_PREFIX") or "bench"
local keys = tonumber(os.getenv("BENCH_KEYS") or "500")
local storm_run = tonumber(os.getenv("BENCH_STORM_RUN") or "20")
local path = os.getenv("BENCH_PATH") or "/payments"
local body = os.getenv("BENCH_BODY") or '{"customerId":"c-bench","amount":2999,"currency":"USD"}'

local threads = {}
counter = 0
statuses = {}
replayed = 0

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local key
  if mode == "fresh" then
    key = prefix .. "-" .. thread_id .. "-" .. counter
  elseif mode == "replay" then
    key = prefix .. "-" .. (counter % keys)
  else
    key = prefix .. "-" .. math.floor(counter / storm_run)
  end
  return wrk.format("POST", path,
    { ["Content-Type"] = "application/json", ["Idempotency-Key"] = key }, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if headers["Idempotent-Replayed"] ~= nil then
    replayed = replayed + 1
  end
end

function done(summary, latency, requests)
  local merged = {}
  local replays = 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      merged[status] = (merged[status] or 0) + count
    end
    replays = replays + thread:get("replayed")
  end
  local parts = {}
  for status, count in pairs(merged) do
    table.insert(parts, string.format('"%d":%d', status, count))
  end
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,' ..
    '"socket_errors":%d,"status_errors":%d,"replayed":%d,"statuses":{%s}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.connect + errors.read + errors.write + errors.timeout, errors.status, replays,
    table.concat(parts, ",")))
end
