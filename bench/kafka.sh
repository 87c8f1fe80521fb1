#!/usr/bin/env bash
# Records per second through one @KafkaListener that writes a row per record to PostgreSQL:
# unguarded, LEASED and ATOMIC, interleaved rounds in one run on Spring Kafka's embedded KRaft
# broker (KafkaListenerBenchmark in idempotency-benchmarks). PostgreSQL must listen on
# 127.0.0.1:5432 (scripts/ensure-services.sh). Arguments go to the benchmark, as --name=value:
#
#   bench/kafka.sh                                   # 20000 records a round, 5 rounds, 4 partitions
#   bench/kafka.sh --records=5000 --rounds=3 --partitions=1
#
# Never run it beside the test suite: both load the machine and PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -q -B -DskipTests package -pl idempotency-benchmarks -am
cd idempotency-benchmarks
exec java -XX:+UseParallelGC -Xmx1g -cp "target/classes:$(cat target/classpath.txt)" \
	io.github.idempotency.benchmarks.kafka.KafkaListenerBenchmark "$@"
