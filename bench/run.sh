#!/usr/bin/env bash
# The benchmark of SPEC 9: starts the sample app on PostgreSQL three times - without @Idempotent
# (baseline), LEASED and ATOMIC - and drives them over HTTP with wrk from another process.
# Every scenario runs in this one invocation, in interleaved rounds, and the report takes medians,
# so that ratios compare like with like on a shared, noisy machine.
# Prints a table and writes bench-results/<timestamp>.json and .md.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-6}
WARMUP=${BENCH_WARMUP:-5}
ROUNDS=${BENCH_ROUNDS:-4}
CONNECTIONS=${BENCH_CONNECTIONS:-"1 8 32"}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench-results
RESULTS="$OUT/$STAMP.jsonl"
DB="idem_bench_$(date +%s)"
PIDS=()

mkdir -p "$OUT"
scripts/ensure-postgres.sh >/dev/null
if ! command -v wrk >/dev/null 2>&1; then
  echo "Installing wrk from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi

echo "Building the sample app"
./mvnw -q -B -DskipTests package -pl sample-payments-app -am
JAR=sample-payments-app/target/sample-payments-app-0.1.0-SNAPSHOT.jar

psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE $DB"

cleanup() {
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
}
trap cleanup EXIT

start_app() {
  local name=$1 port=$2
  shift 2
  java -Xms512m -Xmx512m -jar "$JAR" --spring.profiles.active=postgres --server.port="$port" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" --logging.level.root=WARN \
    --idempotency.operations.create-payment.wait=10s "$@" >"$OUT/$STAMP-$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 120); do
    if curl -fs "http://127.0.0.1:$port/actuator/health" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.5
  done
  echo "The $name app did not start; see $OUT/$STAMP-$name.log" >&2
  exit 1
}

# run_wrk SCENARIO PORT MODE CONNECTIONS SECONDS [ROUND]: records the result when ROUND is given
run_wrk() {
  local scenario=$1 port=$2 mode=$3 connections=$4 seconds=$5 round=${6:-}
  local threads=$((connections < 2 ? connections : 2))
  local line prefix="$scenario-$connections-r${round:-0}-$STAMP"
  if [ "$mode" = replay ]; then
    prefix="$scenario-$connections-$STAMP"
  fi
  line=$(BENCH_MODE=$mode BENCH_PREFIX="$prefix" \
    wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout 30s -s bench/payments.lua \
    "http://127.0.0.1:$port" | grep '^BENCH_RESULT ' | sed 's/^BENCH_RESULT //')
  if [ -n "$round" ]; then
    echo "{\"scenario\":\"$scenario\",\"connections\":$connections,\"round\":$round,${line#\{}" >>"$RESULTS"
    printf '  round %s %-9s c=%-3s %s\n' "$round" "$scenario" "$connections" "$line"
  fi
}

echo "Starting three instances of the sample on database $DB"
start_app baseline 18081 --idempotency.enabled=false
start_app leased 18082
start_app atomic 18083 --idempotency.operations.create-payment.mode=ATOMIC

echo "Warming up"
for port in 18081 18082 18083; do
  run_wrk warmup "$port" fresh 8 $((WARMUP * 2))
done

echo "Measuring ${DURATION}s per scenario, $ROUNDS interleaved rounds"
for c in $CONNECTIONS; do
  run_wrk replay 18082 replay "$c" "$WARMUP"
  for round in $(seq 1 "$ROUNDS"); do
    # Odd rounds run baseline first, even rounds last, so that drift favours no scenario.
    if [ $((round % 2)) -eq 1 ]; then
      run_wrk baseline 18081 fresh "$c" "$DURATION" "$round"
      run_wrk leased 18082 fresh "$c" "$DURATION" "$round"
      run_wrk atomic 18083 fresh "$c" "$DURATION" "$round"
      run_wrk replay 18082 replay "$c" "$DURATION" "$round"
    else
      run_wrk replay 18082 replay "$c" "$DURATION" "$round"
      run_wrk atomic 18083 fresh "$c" "$DURATION" "$round"
      run_wrk leased 18082 fresh "$c" "$DURATION" "$round"
      run_wrk baseline 18081 fresh "$c" "$DURATION" "$round"
    fi
  done
done
for round in $(seq 1 "$ROUNDS"); do
  run_wrk storm 18082 storm 32 "$DURATION" "$round"
done

storm_keys=$(psql -tA -h 127.0.0.1 -U postgres -d "$DB" -c \
  "SELECT count(DISTINCT idempotency_key) FROM payment WHERE idempotency_key LIKE 'storm-%'")
storm_payments=$(psql -tA -h 127.0.0.1 -U postgres -d "$DB" -c \
  "SELECT count(*) FROM payment WHERE idempotency_key LIKE 'storm-%'")
storm_charges=$(psql -tA -h 127.0.0.1 -U postgres -d "$DB" -c \
  "SELECT coalesce(sum(attempts), 0) FROM gateway_charge WHERE idempotency_key LIKE '%:storm-%'")

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB; $(psql -tA -h 127.0.0.1 -U postgres -d postgres -c 'SHOW server_version') PostgreSQL on loopback; $(java -version 2>&1 | head -1)"
python3 bench/report.py "$RESULTS" "$OUT/$STAMP" "$machine" "$storm_keys" "$storm_payments" "$storm_charges"
