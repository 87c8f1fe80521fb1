#!/usr/bin/env bash
# The benchmark of SPEC 9: starts the sample app on PostgreSQL three times - without @Idempotent
# (baseline), LEASED and ATOMIC - and, with its redis profile (the payments still on PostgreSQL),
# LEASED on the local standalone Redis, on the Redis Cluster of scripts/redis-cluster.sh, on that
# cluster with idempotency.redis.wait-replicas=1, and on a Redis that fsyncs its append-only file
# on every write; and drives them over HTTP with wrk from another process.
# Every scenario runs in this one invocation, in interleaved rounds, and the report takes medians,
# so that ratios compare like with like on a shared, noisy machine.
# Prints a table and writes bench-results/<timestamp>.json and .md. Then runs bench/minimal.sh, the
# same comparison on the smallest real endpoint (one insert). BENCH_SUITES=payments or =minimal
# runs one of the two, each at BENCH_CONNECTIONS (1, 8 and 32); BENCH_REDIS=0 leaves out the Redis
# scenarios; BENCH_COMPETITOR_JAR adds another library's build of the smallest endpoint (see
# bench/minimal.sh). BENCH_DATABASE=mariadb runs both suites on MariaDB (127.0.0.1:3306) instead,
# with the sample's mariadb profile and without the Redis scenarios (whose payments are on
# PostgreSQL): the ratios are then to the baseline on MariaDB.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-6}
WARMUP=${BENCH_WARMUP:-5}
WARMUP_MAX=${BENCH_WARMUP_MAX:-120}
ROUNDS=${BENCH_ROUNDS:-4}
CONNECTIONS=${BENCH_CONNECTIONS:-"1 8 32"}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench-results
RESULTS="$OUT/$STAMP.jsonl"
DB="idem_bench_$(date +%s)"
PIDS=()
REDIS=${BENCH_REDIS:-1}
REDIS_PREFIX="bench-$STAMP:"
source bench/database.sh
source bench/redis-stores.sh
source bench/warm-up.sh
if [ "$DATABASE" != postgres ]; then
  REDIS=0
fi

mkdir -p "$OUT"
db_ensure
if ! command -v wrk >/dev/null 2>&1; then
  echo "Installing wrk from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi

SUITES=${BENCH_SUITES:-payments minimal}
echo "Building the sample and the minimal app"
./mvnw -q -B -DskipTests package -pl sample-payments-app,idempotency-bench-minimal -am
if [[ " $SUITES " != *" payments "* ]]; then
  BENCH_MINIMAL_CONNECTIONS=${BENCH_MINIMAL_CONNECTIONS:-$CONNECTIONS} BENCH_STAMP=$STAMP BENCH_SKIP_BUILD=1 exec bench/minimal.sh
fi
JAR=sample-payments-app/target/sample-payments-app-0.1.0-SNAPSHOT.jar

db_create "$DB"

stop_apps() {
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  PIDS=()
}

cleanup() {
  stop_apps
  db_drop "$DB" || true
  if [ "$REDIS" = 1 ]; then
    redis_stores_stop
  fi
}
trap cleanup EXIT

if [ "$REDIS" = 1 ]; then
  redis_stores_start fsync
fi

start_app() {
  local name=$1 port=$2
  shift 2
  # Up to seven instances share one PostgreSQL (100 connections, with other users): each keeps one
  # idle connection, and opens up to ten (Hikari's default) while it is measured. The sample's
  # profile of the same name as DATABASE (postgres or mariadb) picks its driver and migrations.
  java -Xms512m -Xmx512m -jar "$JAR" --spring.profiles.active="$DATABASE" --server.port="$port" \
    --spring.datasource.url="$(db_url "$DB")" --logging.level.root=WARN \
    --spring.datasource.hikari.minimum-idle=1 --spring.datasource.hikari.idle-timeout=10000 \
    --idempotency.operations.create-payment.wait=10s "$@" >"$OUT/$STAMP-$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 240); do
    if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then
      echo "The $name app exited; see $OUT/$STAMP-$name.log" >&2
      exit 1
    fi
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

# Each scenario: name, port, wrk mode. Replays repeat keys that completed on the same instance.
SCENARIOS=("baseline 18081 fresh" "leased 18082 fresh" "atomic 18083 fresh" "replay 18082 replay")
REPLAYS=("replay 18082")
STORMS=("storm 18082")
echo "Starting the sample on database $DB: baseline, LEASED and ATOMIC on $(db_label)"
start_app baseline 18081 --idempotency.enabled=false
start_app leased 18082
start_app atomic 18083 --idempotency.operations.create-payment.mode=ATOMIC
if [ "$REDIS" = 1 ]; then
  echo "... and LEASED on Redis (127.0.0.1:6379), on the Redis Cluster ($CLUSTER_NODES), on the cluster with" \
    "wait-replicas=1, and on a Redis with appendfsync always (127.0.0.1:$FSYNC_PORT)"
  REDIS_ARGS=(--spring.profiles.include=redis --idempotency.redis.key-prefix="$REDIS_PREFIX")
  start_app redis 18084 "${REDIS_ARGS[@]}" --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=6379
  start_app cluster 18085 "${REDIS_ARGS[@]}" --spring.data.redis.cluster.nodes="$CLUSTER_NODES"
  start_app cluster-wait 18086 "${REDIS_ARGS[@]}" --spring.data.redis.cluster.nodes="$CLUSTER_NODES" \
    --idempotency.redis.wait-replicas=1
  start_app redis-fsync 18087 "${REDIS_ARGS[@]}" --spring.data.redis.host=127.0.0.1 \
    --spring.data.redis.port="$FSYNC_PORT"
  SCENARIOS+=("redis-leased 18084 fresh" "redis-replay 18084 replay" "cluster-leased 18085 fresh"
    "cluster-replay 18085 replay" "cluster-wait 18086 fresh" "redis-fsync 18087 fresh")
  REPLAYS+=("redis-replay 18084" "cluster-replay 18085")
  STORMS+=("cluster-storm 18085")
fi

echo "Warming up each instance until its throughput settles"
for scenario in "${SCENARIOS[@]}"; do
  read -r name port mode <<<"$scenario"
  if [ "$mode" = fresh ]; then
    warm_up "$port" 8 "warmup-$name-$STAMP"
  fi
done

echo "Measuring ${DURATION}s per scenario, $ROUNDS interleaved rounds"
for c in $CONNECTIONS; do
  for replay in "${REPLAYS[@]}"; do
    read -r name port <<<"$replay"
    run_wrk "$name" "$port" replay "$c" "$WARMUP"
  done
  for round in $(seq 1 "$ROUNDS"); do
    # Odd rounds run the scenarios in order, even rounds in reverse, so that drift favours none.
    order=("${SCENARIOS[@]}")
    if [ $((round % 2)) -eq 0 ]; then
      order=()
      for ((i = ${#SCENARIOS[@]} - 1; i >= 0; i--)); do
        order+=("${SCENARIOS[i]}")
      done
    fi
    for scenario in "${order[@]}"; do
      read -r name port mode <<<"$scenario"
      run_wrk "$name" "$port" "$mode" "$c" "$DURATION" "$round"
    done
  done
done
for round in $(seq 1 "$ROUNDS"); do
  for storm in "${STORMS[@]}"; do
    read -r name port <<<"$storm"
    run_wrk "$name" "$port" storm 32 "$DURATION" "$round"
  done
done

stop_apps

# storm_counts NAME: distinct keys, payments and gateway charge attempts of a storm scenario
storm_counts() {
  db_sql "SELECT
    (SELECT count(DISTINCT idempotency_key) FROM payment WHERE idempotency_key LIKE '$1-%'),
    (SELECT count(*) FROM payment WHERE idempotency_key LIKE '$1-%'),
    (SELECT coalesce(sum(attempts), 0) FROM gateway_charge WHERE idempotency_key LIKE '%:$1-%')" "$DB"
}
storms="{"
for storm in "${STORMS[@]}"; do
  read -r name port <<<"$storm"
  read -r keys payments charges <<<"$(storm_counts "$name")"
  storms+="\"$name\":{\"keys\":$keys,\"payments\":$payments,\"gateway_charges\":$charges},"
done
storms="${storms%,}}"

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB; $(db_describe)"
if [ "$REDIS" = 1 ]; then
  machine+="; $(redis_stores_describe)"
fi
machine+="; $(java -version 2>&1 | head -1)"
python3 bench/report.py "$RESULTS" "$OUT/$STAMP" "$machine" "$storms" "$(db_label)"
if [[ " $SUITES " == *" minimal "* ]]; then
  cleanup
  trap - EXIT
  BENCH_MINIMAL_CONNECTIONS=${BENCH_MINIMAL_CONNECTIONS:-$CONNECTIONS} BENCH_STAMP=$STAMP BENCH_SKIP_BUILD=1 bench/minimal.sh
fi
