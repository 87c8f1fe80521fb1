#!/usr/bin/env bash
# The chaos soak of issue 15: three instances of the sample on one PostgreSQL database, an
# external payment gateway in a process (and network namespace) of its own, client workers that
# create payments with retries through idempotency-client (a quarter of them through the sample's
# asynchronous endpoint), a nemesis that injects faults on a seeded schedule, and a checker over
# the recorded history, the database and the gateway's log of charge calls.
#
#   bench/chaos.sh [--mode leased|atomic|redis|mariadb] [--duration SECONDS] [--workers N] [--seed N]
#                  [--async-timeout MILLISECONDS]
#
# Without --mode, leased and atomic run, one after the other, with the same seed; redis (the
# records in a Redis server of the run's own, LEASED) and mariadb (the payments and the records in
# a MariaDB server of the run's own instead of PostgreSQL, LEASED) run when asked for, and --mode
# takes a list ("leased atomic redis mariadb"). Prints one summary line per mode and exits non-zero if any checker
# found a violation. Histories and logs are kept in bench-results/chaos-<timestamp>/. Needs root
# (network namespaces, iptables); installs what it needs from Debian's packages. See
# docs/chaos-soak.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

MODES="leased atomic"
DURATION=60
WORKERS=16
SEED=""
# The instances' spring.mvc.async.request-timeout: shorter than the gateway's slow charges, so
# that asynchronous payments run past it.
ASYNC_TIMEOUT_MS=300
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) MODES=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --workers) WORKERS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --async-timeout) ASYNC_TIMEOUT_MS=$2; shift 2 ;;
    *) echo "usage: $0 [--mode leased|atomic|redis|mariadb] [--duration SECONDS] [--workers N] [--seed N]" \
      "[--async-timeout MILLISECONDS]" >&2; exit 2 ;;
  esac
done
for MODE in $MODES; do
  case "$MODE" in
    leased|atomic|redis|mariadb) ;;
    *) echo "chaos: unknown mode $MODE (leased, atomic, redis or mariadb)" >&2; exit 2 ;;
  esac
done
if [ -z "$SEED" ]; then
  SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
fi
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="$ROOT/bench-results/chaos-$STAMP"
mkdir -p "$OUT"
echo "chaos: seed=$SEED modes=$MODES duration=${DURATION}s workers=$WORKERS async-timeout=${ASYNC_TIMEOUT_MS}ms results=$OUT"

if [ "$(id -u)" != 0 ]; then
  echo "chaos: network namespaces and iptables need root" >&2
  exit 1
fi
# One soak at a time on a machine: they share the namespace names, the addresses and the ports, and
# the teardown of one would delete the namespaces of the other. A second run waits for the first;
# namespaces left by a soak that does not take this lock (an older checkout) stop it before it
# touches anything.
exec 9>/run/lock/idempotency-chaos.lock
if ! flock -n 9; then
  echo "chaos: another soak is running; waiting for it to end"
  flock 9
fi
if ip netns list 2>/dev/null | grep -Eq '^chaos-(i|gw)'; then
  echo "chaos: network namespaces chaos-i* or chaos-gw exist: another soak is running (or one was killed; then" \
    "delete them with ip netns del)" >&2
  exit 1
fi
missing=()
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v iptables >/dev/null 2>&1 || missing+=(iptables)
[ -f /usr/include/libnetfilter_queue/libnetfilter_queue.h ] || missing+=(libnetfilter-queue-dev)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v curl >/dev/null 2>&1 || missing+=(curl)
case " $MODES " in
  *" redis "*) command -v redis-server >/dev/null 2>&1 || missing+=(redis-server) ;;
esac
case " $MODES " in
  *" mariadb "*) command -v mariadbd >/dev/null 2>&1 || missing+=(mariadb-server) ;;
esac
if [ ${#missing[@]} -gt 0 ]; then
  echo "chaos: installing ${missing[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q "${missing[@]}" >/dev/null
fi
# PostgreSQL's binaries; the soak runs a throw-away cluster of its own with them.
scripts/ensure-postgres.sh >/dev/null

echo "chaos: building the sample and the soak"
./mvnw -q -B -DskipTests package -pl sample-payments-app,idempotency-chaos -am
JAR=sample-payments-app/target/sample-payments-app-0.1.0-SNAPSHOT.jar
CLASSPATH="$ROOT/idempotency-chaos/target/classes:$(cat idempotency-chaos/target/classpath.txt)"
export CHAOS_CLASSPATH="$CLASSPATH"
# Lettuce (the checker's Redis client) brings slf4j-api without a provider; its notice about that
# is noise, and the soak and the checker report through their own output.
SOAK_JAVA=(-Dslf4j.internal.verbosity=ERROR -cp "$CLASSPATH")

# What makes a mode, in four places: mode_arguments (the arguments of instance N, one a line),
# mode_faults (the kinds of fault the nemesis draws from; empty for those of PostgreSQL alone),
# setup_mode/teardown_store (what the mode runs besides the database) and checker_arguments
# (where ChaosCheck reads the idempotency records); database_create, database_url and
# database_data choose the mode's database (PostgreSQL, or MariaDB in the mariadb mode).
#
# Every mode charges through the external gateway: 50 to 300 ms a charge, 3 to 6 s for the slow
# customers of asynchronous payments (longer than the database and the instances' pools take to
# recover from a crash).
# A claim checks its lease before it calls the gateway, with at least a sixth of its lease
# confirmed (LeaseHeartbeat: half a renewal period), and an asynchronous payment calls it right
# after its claim; so the leases are well above the longest charge (a sixth of 5 s above 300 ms;
# 20 s, less the longest pause the nemesis injects, above 6 s): no takeover the contract allows
# can put two claims of a key inside the gateway at once, which the checker counts as external
# duplicates. The nemesis's database crashes wait for a charge of at least CRASH_ON_LATENCY_MS.
LEASE_SECONDS=5
ASYNC_LEASE_SECONDS=20
GATEWAY_LATENCY=50-300
GATEWAY_SLOW_LATENCY=3000-6000
CRASH_ON_LATENCY_MS=500
mode_arguments() {
  local mode=$1 i=$2
  echo "--idempotency.operations.create-payment.lease=${LEASE_SECONDS}s"
  echo "--idempotency.operations.create-payment-async.lease=${ASYNC_LEASE_SECONDS}s"
  echo "--sample.gateway.url=$(gateway_url_of "$i")"
  echo "--spring.mvc.async.request-timeout=${ASYNC_TIMEOUT_MS}ms"
  case "$mode" in
    leased) echo "--spring.profiles.active=postgres" ;;
    atomic)
      echo "--spring.profiles.active=postgres"
      echo "--idempotency.operations.create-payment.mode=ATOMIC"
      ;;
    # The payments stay on PostgreSQL; the records go to the run's Redis, through the instance's
    # own veth address so that the nemesis can fault that link alone. The Redis store is LEASED.
    redis)
      echo "--spring.profiles.active=postgres,redis"
      echo "--spring.data.redis.host=$(host_addr "$i")"
      echo "--spring.data.redis.port=$CHAOS_REDIS_PORT"
      echo "--spring.data.redis.client-name=chaos-i$i"
      ;;
    # The payments and the records on the run's MariaDB server; the sample's mariadb profile brings
    # its MariaDB migrations.
    mariadb) echo "--spring.profiles.active=mariadb" ;;
  esac
}
mode_faults() {
  case "$1" in
    redis) echo "kill,pause,pg-restart,drop-connections,redis-restart,redis-drop-connections,redis-partition-reject,redis-partition-drop,redis-packet-loss,redis-latency" ;;
    mariadb) echo "kill,pause,mariadb-restart,mariadb-drop-connections,mariadb-partition-reject,mariadb-partition-drop,mariadb-packet-loss,mariadb-latency,mariadb-crash" ;;
  esac
}
setup_mode() {
  if [ "$1" = redis ]; then
    redis_create
    redis_start
    chaos_log "mode $1: redis on port $CHAOS_REDIS_PORT, $(redis_cli config get appendonly | paste -sd= -), $(redis_cli config get appendfsync | paste -sd= -)"
  fi
}
teardown_store() {
  if [ -f "$CHAOS_WORK/redis.pid" ]; then
    redis_destroy
    cp "$CHAOS_WORK/redis.log" "$OUT/$MODE-redis.log" 2>/dev/null || true
  fi
}
checker_arguments() {
  case "$1" in
    redis) echo "--store=redis --redis-url=redis://127.0.0.1:$CHAOS_REDIS_PORT" ;;
    *) echo "--store=jdbc" ;;
  esac
}
database_create() {
  if [ "$1" = mariadb ]; then
    mariadb_create
    mariadb_start
    mariadb_setup
    chaos_log "mode $1: mariadb on port $CHAOS_MARIADB_PORT, $(mariadb_sql -N -e "SELECT CONCAT('innodb_flush_log_at_trx_commit=', @@innodb_flush_log_at_trx_commit)")"
  else
    cluster_create
    cluster_start
    pg -d postgres -c "CREATE DATABASE $CHAOS_DB"
  fi
}
database_url() {
  if [ "$1" = mariadb ]; then
    echo "jdbc:mariadb://127.0.0.1:$CHAOS_MARIADB_PORT/$CHAOS_DB"
  else
    echo "jdbc:postgresql://127.0.0.1:$CHAOS_PG_PORT/$CHAOS_DB"
  fi
}
database_data() {
  if [ "$1" = mariadb ]; then echo "$CHAOS_WORK/mariadb"; else echo "$CHAOS_WORK/pg"; fi
}

cleanup() {
  local rc=$?
  if [ -n "${CHAOS_WORK:-}" ] && [ -d "$CHAOS_WORK" ]; then
    teardown_mode || true
  fi
  exit $rc
}
trap cleanup EXIT INT TERM

SOAK_PID=""
teardown_mode() {
  if [ -n "$SOAK_PID" ]; then
    kill "$SOAK_PID" 2>/dev/null || true
    wait "$SOAK_PID" 2>/dev/null || true
    SOAK_PID=""
  fi
  for i in $(seq 1 "$CHAOS_INSTANCES"); do
    instance_kill9 "$i" 2>/dev/null || true
    netns_destroy "$i"
    cp "$CHAOS_WORK/instance-$i.log" "$OUT/$MODE-instance-$i.log" 2>/dev/null || true
  done
  gateway_destroy
  cp "$CHAOS_WORK/gateway/charges.jsonl" "$OUT/$MODE-gateway-charges.jsonl" 2>/dev/null || true
  cp "$CHAOS_WORK/gateway.log" "$OUT/$MODE-gateway.log" 2>/dev/null || true
  cp "$CHAOS_WORK/postgresql.log" "$OUT/$MODE-postgresql.log" 2>/dev/null || true
  cp "$CHAOS_WORK/mariadb.log" "$OUT/$MODE-mariadb.log" 2>/dev/null || true
  cluster_destroy
  mariadb_destroy
  teardown_store
  rm -rf "$CHAOS_WORK"
  unset CHAOS_WORK
}

SUMMARIES=()
FAILED=0
for MODE in $MODES; do
  export CHAOS_WORK
  CHAOS_WORK=$(mktemp -d /tmp/chaos-XXXXXX)
  source bench/chaos/lib.sh
  chaos_log "mode $MODE: work directory $CHAOS_WORK"
  cp "$JAR" "$CHAOS_WORK/sample.jar"
  gcc -O2 -Wall -o "$CHAOS_WORK/netdelay" bench/chaos/netdelay.c -lnetfilter_queue
  for i in $(seq 1 "$CHAOS_INSTANCES"); do
    mode_arguments "$MODE" "$i" >"$CHAOS_WORK/instance-args-$i"
  done

  urls=()
  for i in $(seq 1 "$CHAOS_INSTANCES"); do
    netns_create "$i"
    urls+=("$(instance_url "$i")")
  done
  gateway_netns_create
  for i in $(seq 1 "$CHAOS_INSTANCES"); do gateway_link "$i"; done
  gateway_start "$SEED" "$GATEWAY_LATENCY" "$GATEWAY_SLOW_LATENCY"
  # after the namespaces, so that the server can listen on their host addresses
  database_create "$MODE"
  setup_mode "$MODE"
  # the first instance migrates the schema alone, then the others start together
  instance_start 1
  instance_await 1
  for i in $(seq 2 "$CHAOS_INSTANCES"); do instance_start "$i"; done
  for i in $(seq 2 "$CHAOS_INSTANCES"); do instance_await "$i"; done
  chaos_log "mode $MODE: $CHAOS_INSTANCES instances up; soaking for ${DURATION}s"

  history="$OUT/$MODE-history.jsonl"
  soak_rc=0
  # in the background, so that an interrupted run is cleaned up at once
  faults=$(mode_faults "$MODE")
  java "${SOAK_JAVA[@]}" io.github.idempotency.chaos.ChaosSoak --instances="$(IFS=,; echo "${urls[*]}")" \
    --history="$history" --fault-script="$ROOT/bench/chaos/fault.sh" --mode="$MODE" --workers="$WORKERS" \
    --seconds="$DURATION" --seed="$SEED" ${faults:+--faults="$faults"} --gateway="$(gateway_control_url)" \
    --database-data="$(database_data "$MODE")" --crash-on-latency-ms="$CRASH_ON_LATENCY_MS" &
  SOAK_PID=$!
  wait "$SOAK_PID" || soak_rc=$?
  SOAK_PID=""
  [ -f "$(dirname "$history")/nemesis.log" ] && mv "$(dirname "$history")/nemesis.log" "$OUT/$MODE-nemesis.log"
  for i in $(seq 1 "$CHAOS_INSTANCES"); do net_heal "$i"; done

  # every lease taken during the soak has lapsed before the records are judged
  sleep $(( (LEASE_SECONDS > ASYNC_LEASE_SECONDS ? LEASE_SECONDS : ASYNC_LEASE_SECONDS) + 2 ))
  check_rc=0
  java "${SOAK_JAVA[@]}" io.github.idempotency.chaos.ChaosCheck --history="$history" \
    --jdbc-url="$(database_url "$MODE")" $(checker_arguments "$MODE") \
    --gateway-log="$CHAOS_WORK/gateway/charges.jsonl" \
    | tee "$OUT/$MODE-check.txt" || check_rc=$?
  if [ "$soak_rc" != 0 ] || [ "$check_rc" != 0 ]; then
    FAILED=1
  fi
  SUMMARIES+=("$(tail -n 1 "$OUT/$MODE-check.txt")")
  teardown_mode
done

echo
echo "chaos: seed=$SEED; histories, checks and logs in $OUT"
printf '%s\n' "${SUMMARIES[@]}"
exit $FAILED
