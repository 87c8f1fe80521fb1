#!/usr/bin/env bash
# Makes sure a standalone Redis server listens on 127.0.0.1:6379 for the Redis store's tests, and
# that redis-server and redis-cli are installed, from which the tests start a throw-away Redis
# Cluster of their own (RedisTestCluster): installs them from Debian's packages if absent and
# starts the server without persistence.
set -euo pipefail

port_open() {
  (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null
}

if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  echo "Redis is not installed; installing it from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q redis-server redis-tools
fi
if port_open; then
  exit 0
fi
echo "Starting Redis on 127.0.0.1:6379"
redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --appendonly no \
  --logfile /tmp/redis-6379.log --dir /tmp
for _ in $(seq 1 30); do
  if redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then
    exit 0
  fi
  sleep 1
done
echo "Redis did not start on 127.0.0.1:6379" >&2
exit 1
