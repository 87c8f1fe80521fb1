#!/usr/bin/env bash
# What PostgreSQL alone costs per request of the smallest endpoint, with pgbench as a client that
# costs almost nothing: the statements each mode sends (as the store builds them, printed by
# PrintPostgresStatements in idempotency-benchmarks; bench/floor.py writes the scripts), and the
# least any store could send for the same guarantees, as the floor scenarios of bench/minimal.sh
# send them (FloorFilter's statements on its floor_record table): a durably committed insert of the
# key before the method (LEASED) or in its transaction (ATOMIC), the method's insert, and a
# synchronously committed HOT update. BEGIN travels with the transaction's first statement, as
# pgjdbc sends it. Prints, per scenario, transactions/s, the server's CPU per request (the whole
# machine's busy time less pgbench's own) and the ratio to the baseline. FLOOR_SECONDS=10
# FLOOR_ROUNDS=3 FLOOR_CLIENTS=8 by default; run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_RUN=${FLOOR_SECONDS:-10}
ROUNDS=${FLOOR_ROUNDS:-3}
CLIENTS=${FLOOR_CLIENTS:-8}
DB="idem_floor_$(date +%s)"
WORK=$(mktemp -d)
SCENARIOS="baseline leased least-leased atomic least-atomic replay-leased replay-atomic"
scripts/ensure-postgres.sh >/dev/null
command -v pgbench >/dev/null && command -v /usr/bin/time >/dev/null || {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-client time >/dev/null
}

sql() {
  psql -qtA -h 127.0.0.1 -U postgres -d "${2:-$DB}" -c "$1"
}
cleanup() {
  sql "DROP DATABASE IF EXISTS $DB WITH (FORCE)" postgres >/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

sql "CREATE DATABASE $DB" postgres
psql -q -h 127.0.0.1 -U postgres -d "$DB" -v ON_ERROR_STOP=1 \
  -f idempotency-jdbc/src/main/resources/io/github/idempotency/jdbc/schema-postgresql.sql
psql -q -h 127.0.0.1 -U postgres -d "$DB" -v ON_ERROR_STOP=1 \
  -f idempotency-bench-minimal/src/main/resources/schema.sql
./mvnw -q -B -DskipTests package -pl idempotency-benchmarks -am
java -cp "idempotency-benchmarks/target/classes:$(cat idempotency-benchmarks/target/classpath.txt)" \
  io.github.idempotency.jdbc.PrintPostgresStatements >"$WORK/statements.sql"
python3 bench/floor.py "$WORK" "$WORK/statements.sql"

seed_replays() {
  sql "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
         fencing_token, created_at, completed_at, expires_at, response_status, response_headers, response_body)
       SELECT 'default', 'create-item', 'r-' || g, 'COMPLETED', repeat('f', 64), gen_random_uuid(), now(), now(),
         now() + INTERVAL '1 day', 201, 'Location: /items/1', convert_to('{\"id\":1,\"name\":\"pen\",\"quantity\":2}', 'UTF8')
       FROM generate_series(0, 499) g"
}

busy_ticks() {
  awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat
}

echo "pgbench, $CLIENTS clients, ${SECONDS_PER_RUN} s per scenario, $ROUNDS interleaved rounds"
: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
  order=$SCENARIOS
  if [ $((round % 2)) -eq 0 ]; then
    order=$(echo "$order" | tr ' ' '\n' | tac | xargs)
  fi
  for scenario in $order; do
    sql "TRUNCATE idempotency_record, item, floor_record"
    seed_replays
    sql "CHECKPOINT"
    b0=$(busy_ticks)
    out=$({ /usr/bin/time -f 'PGBENCH_CPU %U %S' pgbench -h 127.0.0.1 -U postgres -n -M prepared -c "$CLIENTS" \
      -j 2 -T "$SECONDS_PER_RUN" -f "$WORK/$scenario.sql" "$DB"; } 2>&1) || {
      echo "$out" >&2
      exit 1
    }
    b1=$(busy_ticks)
    n=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
    failed=$(echo "$out" | sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p')
    client=$(echo "$out" | awk '/^PGBENCH_CPU/ {print $2 + $3}')
    echo "$scenario $round $n ${failed:-0} $((b1 - b0)) $client" >>"$WORK/results"
    printf '  round %s %-14s %s transactions\n' "$round" "$scenario" "$n"
  done
done
python3 - "$WORK/results" "$SECONDS_PER_RUN" "$(getconf CLK_TCK)" <<'PY'
import statistics, sys
from collections import defaultdict
path, seconds, hz = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
runs = defaultdict(list)
for line in open(path):
    scenario, _, n, failed, ticks, client = line.split()
    n = int(n)
    server_us = (int(ticks) / hz - float(client)) * 1e6 / n
    runs[scenario].append((n / seconds, server_us, int(failed)))
base_rate = statistics.median(r[0] for r in runs["baseline"])
base_cpu = statistics.median(r[1] for r in runs["baseline"])
print()
print("| scenario | requests/s (median) | ratio to baseline | server CPU µs/request | CPU ratio | failed |")
print("|---|---:|---:|---:|---:|---:|")
for scenario, rs in runs.items():
    rate = statistics.median(r[0] for r in rs)
    cpu = statistics.median(r[1] for r in rs)
    print(f"| {scenario} | {rate:.0f} | {rate / base_rate:.2f} | {cpu:.0f} | {cpu / base_cpu:.2f} | {sum(r[2] for r in rs)} |")
PY
