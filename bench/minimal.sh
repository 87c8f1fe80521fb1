#!/usr/bin/env bash
# The smallest-endpoint benchmark: one @Transactional insert answering 201 with a small JSON body
# (module idempotency-bench-minimal), started three times on PostgreSQL - unguarded (baseline),
# LEASED and ATOMIC - and twice LEASED with its records in Redis (idempotency.store.type=redis):
# on the local standalone Redis and on the Redis Cluster of scripts/redis-cluster.sh; each on a
# database of its own, driven over HTTP with wrk from another process, in interleaved rounds.
# BENCH_REDIS=0 leaves out the Redis scenarios. Two floor scenarios run the same endpoint unguarded
# with only the least any store could write around it for LEASED or ATOMIC (bench.floor, FloorFilter
# in the module): what the round trips and commits alone cost; BENCH_FLOOR=0 leaves them out.
# Besides requests/s it reads from PostgreSQL, per request, the transactions committed
# (pg_stat_database), the commit records and bytes written to the WAL (pg_walinspect over the
# run's LSN range) and, where pg_stat_statements is preloaded, the statements sent.
# A sixth instance, LEASED with the replay cache on (idempotency.replay-cache.enabled), replays its
# keys from its own memory (scenario replay-cached); BENCH_CACHE=0 leaves it out.
# A seventh, LEASED with each claim and completion written alone (idempotency.jdbc.write-batch-size=1, scenario
# leased-alone), shows what writing concurrent writes together buys; BENCH_ALONE=0 leaves it out.
# BENCH_DATABASE=mariadb runs it on MariaDB (127.0.0.1:3306) instead: the app's mariadb profile, no
# Redis scenarios, and none of PostgreSQL's statistics (the report says they are absent).
# BENCH_MINIMAL_CONNECTIONS lists the connection counts to measure (8 by default; "1 8 32" runs all
# three, each with its own rounds and its own baseline).
# BENCH_COMPETITOR_JAR runs another library's build of the same endpoint beside ours (scenarios
# competitor and competitor-replay), which the report sets against LEASED, ATOMIC and our replays.
# It is built outside this repository from that library's public sources and must serve POST /items
# with the same body, take the key from the Idempotency-Key header and its database from
# --spring.datasource.url; BENCH_COMPETITOR_ARGS adds arguments to its command line.
# Called by bench/run.sh; prints a table, writes bench-results/<stamp>-minimal.*.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-6}
WARMUP=${BENCH_WARMUP:-5}
WARMUP_MAX=${BENCH_WARMUP_MAX:-120}
ROUNDS=${BENCH_ROUNDS:-4}
CONNECTION_COUNTS=${BENCH_MINIMAL_CONNECTIONS:-8}
# the instances warm up at the largest count measured
CONNECTIONS=$(echo "$CONNECTION_COUNTS" | tr ' ' '\n' | sort -n | tail -1)
COMPETITOR_JAR=${BENCH_COMPETITOR_JAR:-}
STAMP=${BENCH_STAMP:-$(date -u +%Y%m%dT%H%M%SZ)}
OUT=bench-results
RESULTS="$OUT/$STAMP-minimal.jsonl"
PREFIX="idem_min_$(date +%s)"
PIDS=()
BODY='{"name":"pen","quantity":2}'
REDIS=${BENCH_REDIS:-1}
FLOOR=${BENCH_FLOOR:-1}
CACHE=${BENCH_CACHE:-1}
ALONE=${BENCH_ALONE:-1}
REDIS_PREFIX="bench-$STAMP-minimal:"
source bench/database.sh
source bench/redis-stores.sh
source bench/warm-up.sh
PROFILE_ARGS=()
if [ "$DATABASE" != postgres ]; then
  REDIS=0
  PROFILE_ARGS=(--spring.profiles.active="$DATABASE")
fi
APPS="baseline leased atomic"
if [ "$FLOOR" = 1 ]; then
  APPS+=" floor_leased floor_atomic"
fi
if [ "$CACHE" = 1 ]; then
  APPS+=" cached"
fi
if [ "$ALONE" = 1 ]; then
  APPS+=" alone"
fi
if [ "$REDIS" = 1 ]; then
  APPS+=" redis cluster"
fi
if [ -n "$COMPETITOR_JAR" ]; then
  [ -f "$COMPETITOR_JAR" ] || { echo "BENCH_COMPETITOR_JAR: no such file: $COMPETITOR_JAR" >&2; exit 1; }
  APPS+=" competitor"
fi

mkdir -p "$OUT"
db_ensure
if ! command -v wrk >/dev/null 2>&1; then
  echo "Installing wrk from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  echo "Building the minimal app"
  ./mvnw -q -B -DskipTests package -pl idempotency-bench-minimal -am
fi
JAR=idempotency-bench-minimal/target/idempotency-bench-minimal-0.1.0-SNAPSHOT.jar

for app in $APPS; do
  db_create "${PREFIX}_$app"
done
statements=0
if [ "$DATABASE" = postgres ]; then
  db_sql "CREATE EXTENSION IF NOT EXISTS pg_walinspect" >/dev/null
  if db_sql "SHOW shared_preload_libraries" | grep -q pg_stat_statements; then
    db_sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
    statements=1
  fi
fi

cleanup() {
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  for app in $APPS; do
    db_drop "${PREFIX}_$app" || true
  done
  if [ "$REDIS" = 1 ]; then
    redis_stores_stop
  fi
}
trap cleanup EXIT

if [ "$REDIS" = 1 ]; then
  redis_stores_start
fi

start_app() {
  local name=$1 port=$2
  shift 2
  # Up to five instances share one PostgreSQL (100 connections, with other users): each keeps one
  # idle connection, and opens up to ten (Hikari's default) while it is measured.
  # BENCH_FLOOR would bind to the app's bench.floor: the floor instances get it as an argument.
  env -u BENCH_FLOOR java -Xms256m -Xmx256m -jar "${START_JAR:-$JAR}" "${PROFILE_ARGS[@]}" --server.port="$port" \
    --spring.datasource.url="$(db_url "${PREFIX}_$name")" --logging.level.root=WARN \
    --spring.datasource.hikari.minimum-idle=1 --spring.datasource.hikari.idle-timeout=10000 \
    "$@" >"$OUT/$STAMP-minimal-$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 120); do
    if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then
      echo "The $name app exited; see $OUT/$STAMP-minimal-$name.log" >&2
      exit 1
    fi
    if curl -s -o /dev/null "http://127.0.0.1:$port/items" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "The $name app did not start; see $OUT/$STAMP-minimal-$name.log" >&2
  exit 1
}

# stats DATABASE: transactions committed in it and statements sent to it so far (PostgreSQL only)
stats() {
  local commits calls=0
  commits=$(db_sql "SELECT xact_commit FROM pg_stat_database WHERE datname = '$1'")
  if [ "$statements" = 1 ]; then
    calls=$(db_sql "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$1'")
  fi
  echo "$commits $calls"
}

# measure SCENARIO DATABASE PORT MODE ROUND CONNECTIONS
measure() {
  local scenario=$1 database=$2 port=$3 mode=$4 round=$5 connections=$6 line before after lsn0 lsn1 wal prefix syncs0 syncs1
  # On MariaDB, PostgreSQL's statistics are absent (null), not zero.
  local counts='"transactions":null,"statements":null,"statements_known":0,"wal_bytes":null,"wal_commits":null,"wal_syncs":null'
  prefix="$scenario-c$connections-r$round-$STAMP"
  if [ "$mode" = replay ]; then
    prefix="$scenario-$STAMP"
  fi
  if [ "$DATABASE" = postgres ]; then
    before=$(stats "$database")
    lsn0=$(db_sql "SELECT pg_current_wal_flush_lsn()")
    syncs0=$(db_sql "SELECT wal_sync FROM pg_stat_wal")
  fi
  line=$(BENCH_MODE=$mode BENCH_PREFIX="$prefix" BENCH_KEYS=500 BENCH_PATH=/items BENCH_BODY="$BODY" \
    wrk -t"$(( connections < 2 ? 1 : 2 ))" -c"$connections" -d"${DURATION}s" --timeout 30s -s bench/payments.lua "http://127.0.0.1:$port" \
    | grep '^BENCH_RESULT ' | sed 's/^BENCH_RESULT //')
  if [ "$DATABASE" = postgres ]; then
    # Backends report their statistics at most once a second, and asynchronous commits reach the
    # WAL within a few hundred milliseconds: wait for both before reading.
    sleep 1.5
    lsn1=$(db_sql "SELECT pg_current_wal_flush_lsn()")
    syncs1=$(db_sql "SELECT wal_sync FROM pg_stat_wal")
    after=$(stats "$database")
    # Nothing written (a replay on Redis, with the server otherwise idle) leaves both LSNs at the end
    # of the WAL, where pg_walinspect refuses to start reading.
    if [ "$lsn1" = "$lsn0" ]; then
      wal="0 0"
    else
      wal=$(db_sql "SELECT pg_wal_lsn_diff('$lsn1', '$lsn0')::bigint || ' ' || (SELECT count(*) FROM pg_get_wal_records_info('$lsn0', '$lsn1') WHERE resource_manager = 'Transaction' AND record_type LIKE 'COMMIT%')")
    fi
    read -r c0 s0 <<<"$before"
    read -r c1 s1 <<<"$after"
    read -r wal_bytes wal_commits <<<"$wal"
    counts="\"transactions\":$((c1 - c0)),\"statements\":$((s1 - s0)),\"statements_known\":$statements,\"wal_bytes\":$wal_bytes,\"wal_commits\":$wal_commits,\"wal_syncs\":$((syncs1 - syncs0))"
  fi
  echo "{\"scenario\":\"$scenario\",\"connections\":$connections,\"round\":$round,$counts,${line#\{}" >>"$RESULTS"
  printf '  c=%-2s round %s %-17s %s\n' "$connections" "$round" "$scenario" "$line"
}

echo "Starting the minimal app on $(db_label): $APPS (databases ${PREFIX}_*)"
start_app baseline 18181 --idempotency.enabled=false
start_app leased 18182 --idempotency.operations.create-item.mode=LEASED
start_app atomic 18183 --idempotency.operations.create-item.mode=ATOMIC
PORTS="18181 18182 18183"
if [ "$FLOOR" = 1 ]; then
  start_app floor_leased 18186 --idempotency.enabled=false --bench.floor=LEASED
  start_app floor_atomic 18187 --idempotency.enabled=false --bench.floor=ATOMIC
  PORTS+=" 18186 18187"
fi
REPLAY_TARGETS="replay-leased:18182 replay-atomic:18183"
if [ "$ALONE" = 1 ]; then
  start_app alone 18189 --idempotency.operations.create-item.mode=LEASED --idempotency.jdbc.write-batch-size=1
  PORTS+=" 18189"
fi
if [ "$CACHE" = 1 ]; then
  start_app cached 18188 --idempotency.operations.create-item.mode=LEASED --idempotency.replay-cache.enabled=true
  PORTS+=" 18188"
  REPLAY_TARGETS+=" replay-cached:18188"
fi
if [ "$REDIS" = 1 ]; then
  REDIS_ARGS=(--idempotency.store.type=redis --idempotency.redis.key-prefix="$REDIS_PREFIX")
  start_app redis 18184 "${REDIS_ARGS[@]}" --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=6379
  start_app cluster 18185 "${REDIS_ARGS[@]}" --spring.data.redis.cluster.nodes="$CLUSTER_NODES"
  PORTS+=" 18184 18185"
  REPLAY_TARGETS+=" redis-replay:18184 cluster-replay:18185"
fi
if [ -n "$COMPETITOR_JAR" ]; then
  # shellcheck disable=SC2086 # BENCH_COMPETITOR_ARGS is a list of arguments
  START_JAR=$COMPETITOR_JAR start_app competitor 18190 ${BENCH_COMPETITOR_ARGS:-}
  PORTS+=" 18190"
  REPLAY_TARGETS+=" competitor-replay:18190"
fi

echo "Warming up each instance until its throughput settles"
for port in $PORTS; do
  BENCH_PATH=/items BENCH_BODY="$BODY" warm_up "$port" "$CONNECTIONS" "warmup-$port-$STAMP"
  BENCH_MODE=replay BENCH_KEYS=500 BENCH_PREFIX="warmup-replay-$port-$STAMP" BENCH_PATH=/items BENCH_BODY="$BODY" \
    wrk -t"$(( CONNECTIONS < 2 ? 1 : 2 ))" -c"$CONNECTIONS" -d"${WARMUP}s" -s bench/payments.lua "http://127.0.0.1:$port" >/dev/null
done
# the 500 keys each replay scenario cycles over, each stored once before measuring
for target in $REPLAY_TARGETS; do
  seq 0 499 | xargs -P 4 -I{} curl -s -o /dev/null -X POST "http://127.0.0.1:${target#*:}/items" \
    -H 'Content-Type: application/json' -H "Idempotency-Key: ${target%%:*}-$STAMP-{}" -d "$BODY"
done

echo "Measuring ${DURATION}s per scenario, $ROUNDS interleaved rounds, at $CONNECTION_COUNTS connections"
for connections in $CONNECTION_COUNTS; do
for round in $(seq 1 "$ROUNDS"); do
  order="baseline leased atomic replay-leased replay-atomic"
  if [ "$FLOOR" = 1 ]; then
    order+=" floor-leased floor-atomic"
  fi
  if [ "$CACHE" = 1 ]; then
    order+=" replay-cached"
  fi
  if [ "$ALONE" = 1 ]; then
    order+=" leased-alone"
  fi
  if [ "$REDIS" = 1 ]; then
    order+=" redis-leased redis-replay cluster-leased cluster-replay"
  fi
  if [ -n "$COMPETITOR_JAR" ]; then
    order+=" competitor competitor-replay"
  fi
  if [ $((round % 2)) -eq 0 ]; then
    order=$(echo "$order" | tr ' ' '\n' | tac | xargs)
  fi
  for scenario in $order; do
    case $scenario in
      baseline) target="baseline 18181 fresh" ;;
      leased) target="leased 18182 fresh" ;;
      atomic) target="atomic 18183 fresh" ;;
      replay-leased) target="leased 18182 replay" ;;
      replay-atomic) target="atomic 18183 replay" ;;
      replay-cached) target="cached 18188 replay" ;;
      leased-alone) target="alone 18189 fresh" ;;
      floor-leased) target="floor_leased 18186 fresh" ;;
      floor-atomic) target="floor_atomic 18187 fresh" ;;
      redis-leased) target="redis 18184 fresh" ;;
      redis-replay) target="redis 18184 replay" ;;
      cluster-leased) target="cluster 18185 fresh" ;;
      cluster-replay) target="cluster 18185 replay" ;;
      competitor) target="competitor 18190 fresh" ;;
      competitor-replay) target="competitor 18190 replay" ;;
    esac
    read -r app port mode <<<"$target"
    measure "$scenario" "${PREFIX}_$app" "$port" "$mode" "$round" "$connections"
  done
done
done

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB; $(db_describe)"
if [ "$REDIS" = 1 ]; then
  machine+="; $(redis_stores_describe)"
fi
machine+="; $(java -version 2>&1 | head -1)"
python3 bench/minimal_report.py "$RESULTS" "$OUT/$STAMP-minimal" "$machine" "$(db_label)"
