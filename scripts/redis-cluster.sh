#!/usr/bin/env bash
# A local Redis Cluster for the benchmark, the sample's redis-cluster profile and soak scripts:
# three primaries on 127.0.0.1:7101-7103, each with one replica (7104-7106), started from Debian's
# redis-server without persistence (installed if missing). Idempotent: start leaves a healthy
# cluster running, stop leaves nothing behind. The tests start a throw-away cluster of their own
# on free ports (RedisTestCluster) and do not use this one.
#
#   scripts/redis-cluster.sh start|stop|status|nodes
#
# REDIS_CLUSTER_PORT (7101) is the first port, REDIS_CLUSTER_REPLICAS (1) the replicas per primary
# (0 or 1), REDIS_CLUSTER_DIR (/tmp/idempotency-redis-cluster) holds logs and node files.
set -euo pipefail

BASE=${REDIS_CLUSTER_PORT:-7101}
REPLICAS=${REDIS_CLUSTER_REPLICAS:-1}
DIR=${REDIS_CLUSTER_DIR:-/tmp/idempotency-redis-cluster}
PRIMARIES=3
HOST=127.0.0.1
COUNT=$((PRIMARIES * (1 + REPLICAS)))
PORTS=()
for i in $(seq 0 $((COUNT - 1))); do
  PORTS+=($((BASE + i)))
done

cli() {
  local port=$1
  shift
  redis-cli -h "$HOST" -p "$port" "$@"
}

answers() {
  cli "$1" ping 2>/dev/null | grep -q PONG
}

cluster_ok() {
  for port in "${PORTS[@]}"; do
    answers "$port" || return 1
    cli "$port" cluster info 2>/dev/null | grep -q 'cluster_state:ok' || return 1
    [ "$(cli "$port" cluster info | sed -n 's/^cluster_known_nodes:\([0-9]*\).*/\1/p')" = "$COUNT" ] || return 1
  done
}

install() {
  if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    echo "Redis is not installed; installing it from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q redis-server redis-tools
  fi
}

start() {
  install
  if cluster_ok; then
    echo "Redis Cluster already running on $(nodes)"
    return 0
  fi
  # A half-started or broken cluster from an earlier run is replaced, not repaired.
  stop >/dev/null
  mkdir -p "$DIR"
  for port in "${PORTS[@]}"; do
    redis-server --bind "$HOST" --port "$port" --protected-mode no --daemonize yes \
      --cluster-enabled yes --cluster-config-file "nodes-$port.conf" --cluster-node-timeout 5000 \
      --dir "$DIR" --save '' --appendonly no --repl-diskless-sync-delay 0 \
      --pidfile "$DIR/redis-$port.pid" --logfile "$DIR/redis-$port.log"
  done
  for port in "${PORTS[@]}"; do
    for _ in $(seq 1 100); do
      answers "$port" && break
      sleep 0.1
    done
    answers "$port" || { echo "Redis on port $port did not start; see $DIR/redis-$port.log" >&2; exit 1; }
  done
  local addresses=()
  for port in "${PORTS[@]}"; do
    addresses+=("$HOST:$port")
  done
  redis-cli --cluster create "${addresses[@]}" --cluster-replicas "$REPLICAS" --cluster-yes >"$DIR/create.log"
  for _ in $(seq 1 300); do
    cluster_ok && break
    sleep 0.2
  done
  cluster_ok || { echo "The Redis Cluster did not become healthy; see $DIR" >&2; exit 1; }
  echo "Redis Cluster running on $(nodes)"
}

stop() {
  # Every port the cluster may use, whatever REDIS_CLUSTER_REPLICAS it was started with.
  local all=()
  for i in $(seq 0 $((PRIMARIES * 2 - 1))); do
    all+=($((BASE + i)))
  done
  for port in "${all[@]}"; do
    if answers "$port"; then
      cli "$port" shutdown nosave >/dev/null 2>&1 || true
    fi
  done
  for port in "${all[@]}"; do
    for _ in $(seq 1 50); do
      answers "$port" || break
      sleep 0.1
    done
  done
  rm -rf "$DIR"
  echo "Redis Cluster on ports ${all[0]}-${all[-1]} stopped"
}

status() {
  local port role
  for port in "${PORTS[@]}"; do
    if answers "$port"; then
      role=$(cli "$port" role | head -1)
      echo "$HOST:$port $role $(cli "$port" cluster info | grep -o 'cluster_state:[a-z]*')"
    else
      echo "$HOST:$port down"
    fi
  done
  cluster_ok
}

# nodes: the seed list for spring.data.redis.cluster.nodes
nodes() {
  local list=()
  for port in "${PORTS[@]}"; do
    list+=("$HOST:$port")
  done
  (IFS=,; echo "${list[*]}")
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  nodes) nodes ;;
  *) echo "usage: $0 start|stop|status|nodes" >&2; exit 2 ;;
esac
