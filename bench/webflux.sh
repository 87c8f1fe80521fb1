#!/usr/bin/env bash
# The WebFlux benchmark: the reactive sample's POST /payments (a suspending handler, one insert off
# the event loop, 201 with a small JSON body) started three times on PostgreSQL - unguarded
# (idempotency.enabled=false), LEASED with its records in PostgreSQL, and LEASED with its records in
# the local Redis (the payments still in PostgreSQL) - each on a database of its own, warmed up,
# then driven over HTTP with wrk from another process in interleaved rounds; replays of 500 stored
# keys too. Ratios are to the unguarded app of the same run, medians over the rounds.
# BENCH_BEFORE_JAR names another build of the reactive sample (an earlier commit's, say) to start
# twice more, LEASED on PostgreSQL and on Redis (scenarios leased-before, redis-before), measured
# in the same rounds: what a change bought, in one run.
# BENCH_ROUNDS, BENCH_DURATION, BENCH_CONNECTIONS (8) as for bench/run.sh. Prints a table and
# writes bench-results/<stamp>-webflux.jsonl and .md.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-6}
WARMUP=${BENCH_WARMUP:-5}
WARMUP_MAX=${BENCH_WARMUP_MAX:-120}
ROUNDS=${BENCH_ROUNDS:-4}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
STAMP=${BENCH_STAMP:-$(date -u +%Y%m%dT%H%M%SZ)}
OUT=bench-results
RESULTS="$OUT/$STAMP-webflux.jsonl"
PREFIX="idem_flux_$(date +%s)"
PIDS=()
BODY='{"customerId":"c-bench","amount":2999,"currency":"USD"}'
REDIS_PREFIX="bench-$STAMP-webflux:"
APPS="baseline leased redis"
BEFORE_JAR=${BENCH_BEFORE_JAR:-}
SCENARIOS="baseline leased redis replay-leased replay-redis"
if [ -n "$BEFORE_JAR" ]; then
  APPS+=" leased_before redis_before"
  SCENARIOS+=" leased-before redis-before"
fi
source bench/database.sh
source bench/warm-up.sh
if [ "$DATABASE" != postgres ]; then
  echo "bench/webflux.sh runs on PostgreSQL only" >&2
  exit 1
fi

mkdir -p "$OUT"
db_ensure
if ! command -v wrk >/dev/null 2>&1; then
  echo "Installing wrk from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  echo "Building the reactive sample"
  ./mvnw -q -B -DskipTests package -pl sample-reactive-app -am
fi
JAR=sample-reactive-app/target/sample-reactive-app-0.1.0-SNAPSHOT.jar

for app in $APPS; do
  db_create "${PREFIX}_$app"
done
cleanup() {
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  for app in $APPS; do
    db_drop "${PREFIX}_$app" || true
  done
}
trap cleanup EXIT

start_app() {
  local name=$1 port=$2 jar=$JAR
  shift 2
  if [[ $name == *_before ]]; then
    jar=$BEFORE_JAR
  fi
  java -Xms256m -Xmx256m -jar "$jar" --spring.profiles.active=postgres --server.port="$port" \
    --spring.datasource.url="$(db_url "${PREFIX}_$name")" --logging.level.root=WARN \
    --spring.datasource.hikari.minimum-idle=1 --spring.datasource.hikari.idle-timeout=10000 \
    "$@" >"$OUT/$STAMP-webflux-$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 120); do
    if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then
      echo "The $name app exited; see $OUT/$STAMP-webflux-$name.log" >&2
      exit 1
    fi
    if curl -s -o /dev/null "http://127.0.0.1:$port/customers/c/payments/count" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "The $name app did not start; see $OUT/$STAMP-webflux-$name.log" >&2
  exit 1
}

# measure SCENARIO PORT MODE ROUND
measure() {
  local scenario=$1 port=$2 mode=$3 round=$4 line prefix
  prefix="$scenario-r$round-$STAMP"
  if [ "$mode" = replay ]; then
    prefix="$scenario-$STAMP"
  fi
  line=$(BENCH_MODE=$mode BENCH_PREFIX="$prefix" BENCH_KEYS=500 BENCH_PATH=/payments BENCH_BODY="$BODY" \
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s -s bench/payments.lua "http://127.0.0.1:$port" \
    | grep '^BENCH_RESULT ' | sed 's/^BENCH_RESULT //')
  echo "{\"scenario\":\"$scenario\",\"connections\":$CONNECTIONS,\"round\":$round,${line#\{}" >>"$RESULTS"
  printf '  round %s %-14s %s\n' "$round" "$scenario" "$line"
}

echo "Starting the reactive sample on $(db_label): $APPS (databases ${PREFIX}_*)"
start_app baseline 18281 --idempotency.enabled=false
start_app leased 18282
start_app redis 18283 --idempotency.store.type=redis --idempotency.redis.key-prefix="$REDIS_PREFIX" \
  --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=6379

PORTS="18281 18282 18283"
if [ -n "$BEFORE_JAR" ]; then
  start_app leased_before 18284
  start_app redis_before 18285 --idempotency.store.type=redis --idempotency.redis.key-prefix="${REDIS_PREFIX}before:" \
    --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=6379
  PORTS+=" 18284 18285"
fi

echo "Warming up each instance until its throughput settles"
for port in $PORTS; do
  BENCH_PATH=/payments BENCH_BODY="$BODY" warm_up "$port" "$CONNECTIONS" "warmup-$port-$STAMP"
done
for target in replay-leased:18282 replay-redis:18283; do
  seq 0 499 | xargs -P 4 -I{} curl -s -o /dev/null -X POST "http://127.0.0.1:${target#*:}/payments" \
    -H 'Content-Type: application/json' -H "Idempotency-Key: ${target%%:*}-$STAMP-{}" -d "$BODY"
done

echo "Measuring ${DURATION}s per scenario, $ROUNDS interleaved rounds, $CONNECTIONS connections"
for round in $(seq 1 "$ROUNDS"); do
  for scenario in $SCENARIOS; do
    case $scenario in
      baseline) measure baseline 18281 fresh "$round" ;;
      leased) measure leased 18282 fresh "$round" ;;
      redis) measure redis 18283 fresh "$round" ;;
      replay-leased) measure replay-leased 18282 replay "$round" ;;
      replay-redis) measure replay-redis 18283 replay "$round" ;;
      leased-before) measure leased-before 18284 fresh "$round" ;;
      redis-before) measure redis-before 18285 fresh "$round" ;;
    esac
  done
done

python3 - "$RESULTS" "$OUT/$STAMP-webflux.md" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
def median(scenario):
    return statistics.median(r["requests"] / (r["duration_us"] / 1e6) for r in rows if r["scenario"] == scenario)
base = median("baseline")
lines = ["| scenario | requests/s | ratio to unguarded | errors |", "|---|---|---|---|"]
for scenario in ["baseline", "leased", "leased-before", "redis", "redis-before", "replay-leased", "replay-redis"]:
    if not any(r["scenario"] == scenario for r in rows):
        continue
    rps = median(scenario)
    errors = sum(r["socket_errors"] + r["status_errors"] for r in rows if r["scenario"] == scenario)
    lines.append(f"| {scenario} | {rps:,.0f} | {rps / base:.2f} | {errors} |")
table = "\n".join(lines)
open(sys.argv[2], "w").write(table + "\n")
print(table)
if any(r["socket_errors"] + r["status_errors"] for r in rows):
    sys.exit("Some requests failed: the ratios compare nothing")
PY
