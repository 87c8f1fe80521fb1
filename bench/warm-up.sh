# Sourced by bench/run.sh and bench/minimal.sh. warm_up PORT CONNECTIONS PREFIX: first executions
# (bench/payments.lua, with BENCH_PATH and BENCH_BODY as exported, if at all) in 10 s windows until
# two windows in a row run within 5 % of each other - the JIT has settled: on 2 busy cores it still
# compiles the guarded paths a minute in - for at most WARMUP_MAX seconds (120 by default).
warm_up() {
  local port=$1 connections=$2 prefix=$3 window=0 rate previous=0 waited=0
  while [ "$waited" -lt "${WARMUP_MAX:-120}" ]; do
    window=$((window + 1))
    rate=$(BENCH_MODE=fresh BENCH_PREFIX="$prefix-$window" \
      wrk -t"$(( connections < 2 ? 1 : 2 ))" -c"$connections" -d10s --timeout 30s -s bench/payments.lua "http://127.0.0.1:$port" \
      | sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p')
    waited=$((waited + 10))
    if [ "$previous" != 0 ] && python3 -c "import sys; sys.exit(0 if abs($rate - $previous) <= 0.05 * $previous else 1)"; then
      break
    fi
    previous=$rate
  done
  printf '  port %s: %s s of first executions (last %s requests/s)\n' "$port" "$waited" "$rate"
}
