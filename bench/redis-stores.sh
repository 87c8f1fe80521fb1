# Sourced by bench/run.sh and bench/minimal.sh: the Redis servers the Redis scenarios run on, and
# their clean-up. Uses REDIS_PREFIX (the key prefix of the run's records).
#   redis_stores_start [fsync]  the local standalone Redis (scripts/ensure-redis.sh), the Redis
#                               Cluster of scripts/redis-cluster.sh (started if not running, and
#                               then stopped again by redis_stores_stop), and with "fsync" a
#                               standalone Redis on FSYNC_PORT that fsyncs its append-only file
#                               before answering each write; sets CLUSTER_NODES
#   redis_stores_stop           deletes the run's records, stops what redis_stores_start started
#   redis_stores_describe       one line on the servers, for the report's machine line

FSYNC_PORT=7110
FSYNC_DIR=""
CLUSTER_STARTED=0
CLUSTER_NODES=""

redis_stores_start() {
  scripts/ensure-redis.sh >/dev/null
  if ! scripts/redis-cluster.sh status >/dev/null 2>&1; then
    scripts/redis-cluster.sh start
    CLUSTER_STARTED=1
  fi
  CLUSTER_NODES=$(scripts/redis-cluster.sh nodes)
  if [ "${1:-}" = fsync ]; then
    FSYNC_DIR=$(mktemp -d /tmp/bench-redis-fsync.XXXXXX)
    redis-server --bind 127.0.0.1 --port "$FSYNC_PORT" --daemonize yes --save '' --appendonly yes \
      --appendfsync always --dir "$FSYNC_DIR" --logfile "$FSYNC_DIR/redis.log"
    for _ in $(seq 1 50); do
      redis-cli -p "$FSYNC_PORT" ping 2>/dev/null | grep -q PONG && return 0
      sleep 0.1
    done
    echo "Redis did not start on port $FSYNC_PORT; see $FSYNC_DIR/redis.log" >&2
    return 1
  fi
}

# redis_clean PORT: deletes the run's records from a Redis node, if it is a primary
redis_clean() {
  redis-cli -p "$1" role 2>/dev/null | head -1 | grep -q master || return 0
  redis-cli -p "$1" --scan --pattern "$REDIS_PREFIX*" | xargs -r -n 500 redis-cli -p "$1" del >/dev/null || true
}

redis_stores_stop() {
  redis_clean 6379
  if [ "$CLUSTER_STARTED" = 1 ]; then
    scripts/redis-cluster.sh stop >/dev/null || true
    CLUSTER_STARTED=0
  elif [ -n "$CLUSTER_NODES" ]; then
    for node in ${CLUSTER_NODES//,/ }; do
      redis_clean "${node##*:}"
    done
  fi
  if [ -n "$FSYNC_DIR" ]; then
    redis-cli -p "$FSYNC_PORT" shutdown nosave >/dev/null 2>&1 || true
    rm -rf "$FSYNC_DIR"
    FSYNC_DIR=""
  fi
}

redis_stores_describe() {
  local seed=${CLUSTER_NODES%%,*} primaries replicas
  primaries=$(redis-cli -p "${seed##*:}" cluster nodes | grep -c master)
  replicas=$(redis-cli -p "${seed##*:}" cluster nodes | grep -c slave)
  echo "Redis $(redis-server --version | sed 's/.* v=\([^ ]*\).*/\1/') on loopback: standalone and a cluster of" \
    "$primaries primaries and $replicas replicas, without persistence$([ -n "$FSYNC_DIR" ] && echo "; fsync: a standalone with appendonly yes, appendfsync always")"
}
