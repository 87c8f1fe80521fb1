#!/usr/bin/env bash
# Makes sure a RabbitMQ broker listens on 127.0.0.1:5672 (guest/guest) for the sample's ledger
# tests: installs it from Debian's packages if absent and starts it.
set -euo pipefail

port_open() {
  (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null
}

if port_open; then
  exit 0
fi
if ! command -v rabbitmq-server >/dev/null 2>&1; then
  echo "RabbitMQ is not installed; installing it from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q rabbitmq-server
fi
echo "Starting RabbitMQ"
rabbitmq-server -detached || true
for _ in $(seq 1 60); do
  port_open && exit 0
  sleep 1
done
echo "RabbitMQ did not start on 127.0.0.1:5672" >&2
exit 1
