#!/usr/bin/env bash
# Makes sure every service the test suite talks to is up on loopback - PostgreSQL, MariaDB,
# RabbitMQ and Redis - installing and starting what is missing from Debian's packages.
# `./mvnw verify` runs it before the first test (skip with -Didempotency.services.skip=true), and so
# does CI.
set -euo pipefail
cd "$(dirname "$0")"
./ensure-postgres.sh
./ensure-mariadb.sh
./ensure-rabbitmq.sh
./ensure-redis.sh
