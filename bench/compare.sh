#!/usr/bin/env bash
# Before and after a change, in one run: builds the sample and the minimal app at a git revision
# (BEFORE, e.g. the commit before a refactoring) and at the working tree, starts both builds'
# apps on PostgreSQL - LEASED and ATOMIC for each, and the working tree's unguarded baseline - and
# drives them with wrk (bench/payments.lua) in interleaved rounds, both suites: POST /payments of
# the sample (payments) and POST /items of the minimal app (minimal), 8 connections. Prints
# requests/s medians and the after/before ratios, and writes bench-results/<stamp>-compare.md.
#
#   bench/compare.sh BEFORE
#
# Ports 19081-19090, so that it can run beside bench/run.sh; the machine is shared, so read the
# ratios, never the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."

BEFORE=${1:?usage: bench/compare.sh BEFORE-REVISION}
DURATION=${BENCH_DURATION:-6}
ROUNDS=${BENCH_ROUNDS:-4}
CONNECTIONS=8
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench-results
RESULTS="$OUT/$STAMP-compare.jsonl"
DB="idem_cmp_$(date +%s)"
WORK=$(mktemp -d /tmp/bench-compare-XXXXXX)
PIDS=()
WARMUP_MAX=${BENCH_WARMUP_MAX:-40}
source bench/warm-up.sh
mkdir -p "$OUT"
scripts/ensure-postgres.sh >/dev/null
command -v wrk >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null

sql() {
  psql -q -tA -h 127.0.0.1 -U postgres -d postgres -c "$1"
}

cleanup() {
  for pid in "${PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  for database in $(sql "SELECT datname FROM pg_database WHERE datname LIKE '${DB}_%'"); do
    sql "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null || true
  done
  git worktree remove --force "$WORK/before" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

AFTER="working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench-results' || echo ', changed'))"
echo "Building the $AFTER and $BEFORE ($(git rev-parse --short "$BEFORE"))"
./mvnw -q -B -DskipTests package -pl sample-payments-app,idempotency-bench-minimal -am
git worktree add -q --detach "$WORK/before" "$BEFORE"
(cd "$WORK/before" && ./mvnw -q -B -DskipTests package -pl sample-payments-app,idempotency-bench-minimal -am)
SAMPLE_AFTER=sample-payments-app/target/sample-payments-app-0.1.0-SNAPSHOT.jar
MINIMAL_AFTER=idempotency-bench-minimal/target/idempotency-bench-minimal-0.1.0-SNAPSHOT.jar
SAMPLE_BEFORE=$WORK/before/$SAMPLE_AFTER
MINIMAL_BEFORE=$WORK/before/$MINIMAL_AFTER

# start NAME JAR PORT DATABASE ARGS...: an app on its own database; the sample with its postgres
# profile. Ten apps share one PostgreSQL (100 connections, with other users): each gives back its
# idle connections after 10 s.
start() {
  local name=$1 jar=$2 port=$3 database=$4
  shift 4
  sql "CREATE DATABASE $database" >/dev/null
  java -Xms256m -Xmx256m -jar "$jar" --server.port="$port" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$database" --spring.datasource.username=postgres \
    --logging.level.root=WARN --spring.datasource.hikari.minimum-idle=1 \
    --spring.datasource.hikari.idle-timeout=10000 "$@" >"$OUT/$STAMP-compare-$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 240); do
    if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then
      echo "The $name app exited; see $OUT/$STAMP-compare-$name.log" >&2
      exit 1
    fi
    if curl -s -o /dev/null "http://127.0.0.1:$port/actuator/health" || curl -s -o /dev/null "http://127.0.0.1:$port/items"; then
      return 0
    fi
    sleep 0.5
  done
  echo "The $name app did not start; see $OUT/$STAMP-compare-$name.log" >&2
  exit 1
}

# One instance, on a database of its own, per build and mode.
P=--spring.profiles.active=postgres
start payments-baseline "$SAMPLE_AFTER" 19081 "${DB}_p_baseline" "$P" --idempotency.enabled=false
start payments-before-leased "$SAMPLE_BEFORE" 19082 "${DB}_p_before_leased" "$P"
start payments-after-leased "$SAMPLE_AFTER" 19083 "${DB}_p_after_leased" "$P"
start payments-before-atomic "$SAMPLE_BEFORE" 19084 "${DB}_p_before_atomic" "$P" --idempotency.operations.create-payment.mode=ATOMIC
start payments-after-atomic "$SAMPLE_AFTER" 19085 "${DB}_p_after_atomic" "$P" --idempotency.operations.create-payment.mode=ATOMIC
start minimal-baseline "$MINIMAL_AFTER" 19086 "${DB}_m_baseline" --idempotency.enabled=false
start minimal-before-leased "$MINIMAL_BEFORE" 19087 "${DB}_m_before_leased" --idempotency.operations.create-item.mode=LEASED
start minimal-after-leased "$MINIMAL_AFTER" 19088 "${DB}_m_after_leased" --idempotency.operations.create-item.mode=LEASED
start minimal-before-atomic "$MINIMAL_BEFORE" 19089 "${DB}_m_before_atomic" --idempotency.operations.create-item.mode=ATOMIC
start minimal-after-atomic "$MINIMAL_AFTER" 19090 "${DB}_m_after_atomic" --idempotency.operations.create-item.mode=ATOMIC

SCENARIOS=(
  "payments-baseline 19081 /payments" "payments-before-leased 19082 /payments" "payments-after-leased 19083 /payments"
  "payments-before-atomic 19084 /payments" "payments-after-atomic 19085 /payments"
  "minimal-baseline 19086 /items" "minimal-before-leased 19087 /items" "minimal-after-leased 19088 /items"
  "minimal-before-atomic 19089 /items" "minimal-after-atomic 19090 /items"
)
ITEM='{"name":"pen","quantity":2}'
body_of() {
  if [ "$1" = /items ]; then echo "$ITEM"; else echo '{"customerId":"c-bench","amount":2999,"currency":"USD"}'; fi
}

echo "Warming up each instance until its throughput settles"
for scenario in "${SCENARIOS[@]}"; do
  read -r name port path <<<"$scenario"
  BENCH_PATH=$path BENCH_BODY=$(body_of "$path") warm_up "$port" "$CONNECTIONS" "warmup-$name-$STAMP"
done

echo "Measuring ${DURATION}s per scenario, $ROUNDS interleaved rounds, $CONNECTIONS connections"
for round in $(seq 1 "$ROUNDS"); do
  order=("${SCENARIOS[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    order=()
    for ((i = ${#SCENARIOS[@]} - 1; i >= 0; i--)); do order+=("${SCENARIOS[i]}"); done
  fi
  for scenario in "${order[@]}"; do
    read -r name port path <<<"$scenario"
    rate=$(BENCH_MODE=fresh BENCH_PREFIX="$name-r$round-$STAMP" BENCH_PATH=$path BENCH_BODY=$(body_of "$path") \
      wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s -s bench/payments.lua "http://127.0.0.1:$port" \
      | sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p')
    echo "{\"scenario\":\"$name\",\"round\":$round,\"rps\":${rate:-0}}" >>"$RESULTS"
    printf '  round %s %-24s %s requests/s\n' "$round" "$name" "$rate"
  done
done

python3 - "$RESULTS" "$OUT/$STAMP-compare.md" "$BEFORE ($(git rev-parse --short "$BEFORE"))" \
  "$AFTER" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
median = {}
for name in dict.fromkeys(r["scenario"] for r in rows):
    median[name] = statistics.median(r["rps"] for r in rows if r["scenario"] == name)
lines = ["| suite | mode | before | after | after / before | after / baseline |", "|---|---|---|---|---|---|"]
for suite in ("payments", "minimal"):
    base = median[f"{suite}-baseline"]
    lines.append(f"| {suite} | unguarded baseline | | {base:.0f} | | |")
    for mode in ("leased", "atomic"):
        b, a = median[f"{suite}-before-{mode}"], median[f"{suite}-after-{mode}"]
        lines.append(f"| {suite} | {mode.upper()} | {b:.0f} | {a:.0f} | {a / b:.2f} | {a / base:.2f} |")
text = f"Before: {sys.argv[3]}; after: {sys.argv[4]}; requests/s, medians of the rounds.\n\n" + "\n".join(lines) + "\n"
open(sys.argv[2], "w").write(text)
print(text)
EOF
