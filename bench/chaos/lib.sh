# Shared by bench/chaos.sh and bench/chaos/fault.sh: a private PostgreSQL cluster (in the mariadb
# mode a private MariaDB server instead), in the redis mode a private Redis server, one network namespace per instance of the sample, the external
# payment gateway in a namespace of its own, and the faults the nemesis injects between them.
# Every piece of state lives under $CHAOS_WORK so that each fault.sh call is stateless.
#
# Layout: instance N (1..3) runs in namespace chaos-iN with address 10.213.N.2 on its end of a
# veth pair; the host end is 10.213.N.1, where PostgreSQL (and Redis) listen. The gateway runs in
# namespace chaos-gw: a veth pair to the host (10.213.100.1 on the host, 10.213.100.2 in chaos-gw:
# the soak's control and health checks) and one to each instance (10.214.N.2 in chaos-iN,
# 10.214.N.1 in chaos-gw). The namespaces have no other interface and no default route: an
# instance reaches only this machine and the gateway, the gateway only the instances and this
# machine. A network fault acts on one link of an instance: "pg" (its packets to PostgreSQL's
# port), "mariadb" (to MariaDB's) or "redis" (to Redis's port).

: "${CHAOS_WORK:?CHAOS_WORK must name the work directory of the run}"
CHAOS_INSTANCES=${CHAOS_INSTANCES:-3}
# The servers' ports are below Linux's ephemeral range (32768-60999) and the tests' ports
# (20000-32000): a client connection that happened to hold 127.0.0.1:55432 once made PostgreSQL
# start without its loopback socket, and the run stop in its set-up.
CHAOS_PG_PORT=${CHAOS_PG_PORT:-15432}
# Not the machine's Redis on 6379, which keeps nothing on disk: a server of the run's own.
CHAOS_REDIS_PORT=${CHAOS_REDIS_PORT:-6390}
# Not the machine's MariaDB on 3306 either.
CHAOS_MARIADB_PORT=${CHAOS_MARIADB_PORT:-13306}
CHAOS_DB=chaos
CHAOS_HTTP_PORT=8080
CHAOS_GATEWAY_PORT=${CHAOS_GATEWAY_PORT:-8090}
CHAOS_GATEWAY_NS=chaos-gw
CHAOS_PG_BIN=${CHAOS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}

chaos_log() {
  echo "[chaos $(date -u +%H:%M:%S)] $*" >&2
}

ns_of() { echo "chaos-i$1"; }
host_addr() { echo "10.213.$1.1"; }
instance_addr() { echo "10.213.$1.2"; }
instance_url() { echo "http://$(instance_addr "$1"):$CHAOS_HTTP_PORT"; }

gateway_addr() { echo "10.213.100.2"; }
gateway_control_url() { echo "http://$(gateway_addr):$CHAOS_GATEWAY_PORT"; }
# The gateway's URL as instance N reaches it.
gateway_url_of() { echo "http://10.214.$1.1:$CHAOS_GATEWAY_PORT"; }

pg() {
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$CHAOS_PG_PORT" -U postgres "$@"
}

# A throw-away PostgreSQL cluster of this run's own, so that restarting it (a fault) and letting it
# listen on the veth addresses touch no other cluster on the machine.
cluster_create() {
  local data="$CHAOS_WORK/pg"
  mkdir -p "$data"
  chown postgres:postgres "$CHAOS_WORK" "$data"
  chmod 700 "$data"
  runuser -u postgres -- "$CHAOS_PG_BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-locale >"$CHAOS_WORK/initdb.log"
  local listen="127.0.0.1"
  for i in $(seq 1 "$CHAOS_INSTANCES"); do
    listen="$listen,$(host_addr "$i")"
  done
  cat >>"$data/postgresql.conf" <<EOF
port = $CHAOS_PG_PORT
listen_addresses = '$listen'
unix_socket_directories = '$CHAOS_WORK'
max_connections = 200
shared_buffers = 128MB
EOF
  echo "host all all 10.213.0.0/16 trust" >>"$data/pg_hba.conf"
}

cluster_start() {
  runuser -u postgres -- "$CHAOS_PG_BIN/pg_ctl" -D "$CHAOS_WORK/pg" -l "$CHAOS_WORK/postgresql.log" -w -t 60 start >/dev/null
}

# A crash of the database server: immediate shutdown (no checkpoint, backends killed), then
# crash recovery on start.
cluster_restart_immediate() {
  runuser -u postgres -- "$CHAOS_PG_BIN/pg_ctl" -D "$CHAOS_WORK/pg" -l "$CHAOS_WORK/postgresql.log" -m immediate -w -t 60 restart >/dev/null
}

# Waits until the server accepts connections again, after a crash and its recovery.
cluster_await() {
  for _ in $(seq 1 1200); do
    if pg -d postgres -tAc "SELECT 1" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.05
  done
  chaos_log "postgresql did not accept connections again; see $CHAOS_WORK/postgresql.log"
  return 1
}

cluster_destroy() {
  if [ -f "$CHAOS_WORK/pg/postmaster.pid" ]; then
    runuser -u postgres -- "$CHAOS_PG_BIN/pg_ctl" -D "$CHAOS_WORK/pg" -m immediate -w -t 60 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$CHAOS_WORK/pg"
}

netns_create() {
  local i=$1 ns
  ns=$(ns_of "$i")
  ip netns add "$ns"
  ip link add "chx$i" type veth peer name "chy$i"
  ip link set "chy$i" netns "$ns"
  ip addr add "$(host_addr "$i")/30" dev "chx$i"
  ip link set "chx$i" up
  ip netns exec "$ns" ip addr add "$(instance_addr "$i")/30" dev "chy$i"
  ip netns exec "$ns" ip link set "chy$i" up
  ip netns exec "$ns" ip link set lo up
}

netns_destroy() {
  local i=$1
  net_heal "$i" 2>/dev/null || true
  ip netns del "$(ns_of "$i")" 2>/dev/null || true
  ip link del "chx$i" 2>/dev/null || true
}

# The gateway's namespace and its link to the host; gateway_link N adds the link to instance N's
# namespace (which must exist).
gateway_netns_create() {
  ip netns add "$CHAOS_GATEWAY_NS"
  ip link add chgx type veth peer name chgy
  ip link set chgy netns "$CHAOS_GATEWAY_NS"
  ip addr add 10.213.100.1/30 dev chgx
  ip link set chgx up
  ip netns exec "$CHAOS_GATEWAY_NS" ip addr add "$(gateway_addr)/30" dev chgy
  ip netns exec "$CHAOS_GATEWAY_NS" ip link set chgy up
  ip netns exec "$CHAOS_GATEWAY_NS" ip link set lo up
}

gateway_link() {
  local i=$1 ns
  ns=$(ns_of "$i")
  ip link add "cgi$i" netns "$ns" type veth peer name "cgg$i" netns "$CHAOS_GATEWAY_NS"
  ip netns exec "$ns" ip addr add "10.214.$i.2/30" dev "cgi$i"
  ip netns exec "$ns" ip link set "cgi$i" up
  ip netns exec "$CHAOS_GATEWAY_NS" ip addr add "10.214.$i.1/30" dev "cgg$i"
  ip netns exec "$CHAOS_GATEWAY_NS" ip link set "cgg$i" up
}

# gateway_start SEED LATENCY SLOW_LATENCY: starts the external gateway (the class path of the
# idempotency-chaos module in $CHAOS_CLASSPATH) in its namespace, its log of charge calls in
# $CHAOS_WORK/gateway, and waits until it answers.
gateway_start() {
  local seed=$1 latency=$2 slow=$3 pid
  mkdir -p "$CHAOS_WORK/gateway"
  ip netns exec "$CHAOS_GATEWAY_NS" java -Xms64m -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -cp "$CHAOS_CLASSPATH" io.github.idempotency.chaos.ChaosGateway --port="$CHAOS_GATEWAY_PORT" \
    --log="$CHAOS_WORK/gateway/charges.jsonl" --seed="$seed" --latency-ms="$latency" --slow-latency-ms="$slow" \
    >>"$CHAOS_WORK/gateway.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$CHAOS_WORK/gateway.pid"
  disown "$pid"
  for _ in $(seq 1 600); do
    if curl -fs -m 2 "$(gateway_control_url)/health" >/dev/null 2>&1; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      chaos_log "the gateway exited while starting; see $CHAOS_WORK/gateway.log"
      return 1
    fi
    sleep 0.1
  done
  chaos_log "the gateway did not answer; see $CHAOS_WORK/gateway.log"
  return 1
}

gateway_destroy() {
  local pid
  pid=$(cat "$CHAOS_WORK/gateway.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  fi
  ip netns del "$CHAOS_GATEWAY_NS" 2>/dev/null || true
  ip link del chgx 2>/dev/null || true
}

# instance_start N: starts instance N in its namespace with the mode's arguments for it (profiles
# included) saved in $CHAOS_WORK/instance-args-N, and returns at once; instance_await N waits until
# it is healthy.
instance_start() {
  local i=$1 ns args=()
  ns=$(ns_of "$i")
  mapfile -t args <"$CHAOS_WORK/instance-args-$i"
  ip netns exec "$ns" java -Xms256m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$CHAOS_WORK/sample.jar" \
    --server.port="$CHAOS_HTTP_PORT" --spring.main.banner-mode=off \
    --logging.level.root=WARN \
    --spring.datasource.url="$(datasource_url "$i")" \
    --spring.datasource.hikari.connection-timeout=5000 \
    "${args[@]}" >>"$CHAOS_WORK/instance-$i.log" 2>&1 </dev/null &
  echo $! >"$CHAOS_WORK/instance-$i.pid"
  disown $!
}

# The database instance N reaches through its veth address: the run's MariaDB server in the mariadb
# mode, its PostgreSQL cluster otherwise; connect and read timeouts as short on both.
datasource_url() {
  if [ -f "$CHAOS_WORK/mariadb.cnf" ]; then
    echo "jdbc:mariadb://$(host_addr "$1"):$CHAOS_MARIADB_PORT/$CHAOS_DB?connectTimeout=5000&socketTimeout=30000"
  else
    echo "jdbc:postgresql://$(host_addr "$1"):$CHAOS_PG_PORT/$CHAOS_DB?ApplicationName=chaos-i$1&connectTimeout=5&socketTimeout=30"
  fi
}

# Like a supervisor with a restart policy: an instance that exits while starting (its database
# unreachable because of another fault, say) is started again, until it is healthy.
instance_await() {
  local i=$1 url starts=1
  url="$(instance_url "$i")/actuator/health"
  for _ in $(seq 1 480); do
    if curl -fs -m 2 "$url" >/dev/null 2>&1; then
      return 0
    fi
    if ! kill -0 "$(cat "$CHAOS_WORK/instance-$i.pid")" 2>/dev/null; then
      if [ "$starts" -ge 10 ]; then
        chaos_log "instance $i exited $starts times while starting; see $CHAOS_WORK/instance-$i.log"
        return 1
      fi
      chaos_log "instance $i exited while starting; starting it again"
      instance_start "$i"
      starts=$((starts + 1))
    fi
    sleep 0.5
  done
  chaos_log "instance $i did not become healthy; see $CHAOS_WORK/instance-$i.log"
  return 1
}

instance_kill9() {
  local i=$1 pid
  pid=$(cat "$CHAOS_WORK/instance-$i.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  fi
}

# Freezes instance N (and thaws it): every thread stops, its sockets stay open, its leases run on.
instance_signal() {
  local pid
  pid=$(cat "$CHAOS_WORK/instance-$1.pid" 2>/dev/null || true)
  if [ -n "$pid" ]; then
    kill -"$2" "$pid" 2>/dev/null || true
  fi
}

# Ends every connection that instance N has open to the database, as a network blip or a database
# failover would: the server closes them, and the instance's pools see broken connections.
drop_connections() {
  # a crash of the server (another fault) has ended them already
  pg -d postgres -tAc "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'chaos-i$1'" \
    || chaos_log "drop-connections: the server is not accepting connections (crashed or restarting)"
}

# The port of a link: pg (the default), mariadb or redis.
link_port() {
  case "${1:-pg}" in
    pg) echo "$CHAOS_PG_PORT" ;;
    mariadb) echo "$CHAOS_MARIADB_PORT" ;;
    redis) echo "$CHAOS_REDIS_PORT" ;;
    *) echo "unknown link: $1" >&2; return 1 ;;
  esac
}

# partition N reject|drop [LINK]: the instance's outgoing packets on the link pass through iptables
# in its namespace.
partition() {
  local i=$1 how=$2 port
  port=$(link_port "${3:-pg}")
  if [ "$how" = reject ]; then
    ip netns exec "$(ns_of "$i")" iptables -A OUTPUT -p tcp -d "$(host_addr "$i")" --dport "$port" \
      -j REJECT --reject-with tcp-reset
  else
    ip netns exec "$(ns_of "$i")" iptables -A OUTPUT -p tcp -d "$(host_addr "$i")" --dport "$port" -j DROP
  fi
}

# packet_loss N PROBABILITY [LINK]
packet_loss() {
  local i=$1 probability=$2 port
  port=$(link_port "${3:-pg}")
  ip netns exec "$(ns_of "$i")" iptables -A OUTPUT -p tcp -d "$(host_addr "$i")" --dport "$port" \
    -m statistic --mode random --probability "$probability" -j DROP
}

# latency N DELAY_MS [LINK]: each packet from the instance on the link waits in the kernel's NFQUEUE
# until netdelay, running in the namespace, lets it through DELAY_MS later: the round trip grows by
# that much.
latency() {
  local i=$1 delay_ms=$2 ns port
  port=$(link_port "${3:-pg}")
  ns=$(ns_of "$i")
  ip netns exec "$ns" "$CHAOS_WORK/netdelay" "$i" "$delay_ms" >>"$CHAOS_WORK/netdelay-$i.log" 2>&1 </dev/null &
  echo $! >"$CHAOS_WORK/netdelay-$i.pid"
  disown $!
  echo "$delay_ms" >"$CHAOS_WORK/netdelay-$i.ms"
  sleep 0.2
  ip netns exec "$ns" iptables -A OUTPUT -p tcp -d "$(host_addr "$i")" --dport "$port" \
    -j NFQUEUE --queue-num "$i" --queue-bypass
}

# Removes every rule and the delayer of instance N: the link is clean again.
net_heal() {
  local i=$1 ns pid
  ns=$(ns_of "$i")
  ip netns exec "$ns" iptables -F OUTPUT 2>/dev/null || true
  if [ -f "$CHAOS_WORK/netdelay-$i.pid" ]; then
    # let the packets already held go through before the delayer goes away
    sleep "$(awk '{ printf "%.3f", $1 / 1000 + 0.1 }' "$CHAOS_WORK/netdelay-$i.ms")"
    pid=$(cat "$CHAOS_WORK/netdelay-$i.pid")
    kill "$pid" 2>/dev/null || true
    rm -f "$CHAOS_WORK/netdelay-$i.pid" "$CHAOS_WORK/netdelay-$i.ms"
  fi
}

# A Redis server of the run's own for the redis mode, durable enough that a record it acknowledged
# survives its kill -9: every write is appended to its append-only file and fsynced before the
# reply goes out (appendonly yes, appendfsync always). It listens on 127.0.0.1 and the veth
# addresses, on its own port and directory; the machine's Redis on 6379 is never touched.
redis_create() {
  local bind="127.0.0.1"
  mkdir -p "$CHAOS_WORK/redis"
  for i in $(seq 1 "$CHAOS_INSTANCES"); do
    bind="$bind $(host_addr "$i")"
  done
  cat >"$CHAOS_WORK/redis/redis.conf" <<EOF
port $CHAOS_REDIS_PORT
bind $bind
protected-mode no
daemonize no
dir $CHAOS_WORK/redis
logfile ""
save ""
appendonly yes
appendfsync always
EOF
}

redis_cli() {
  redis-cli -h 127.0.0.1 -p "$CHAOS_REDIS_PORT" "$@"
}

# Starts the server and waits until it has loaded its append-only file and answers.
redis_start() {
  local pid
  redis-server "$CHAOS_WORK/redis/redis.conf" >>"$CHAOS_WORK/redis.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$CHAOS_WORK/redis.pid"
  disown "$pid"
  for _ in $(seq 1 1200); do
    # PING answers LOADING while the append-only file is replayed
    if [ "$(redis_cli ping 2>/dev/null)" = PONG ]; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      chaos_log "redis exited while starting; see $CHAOS_WORK/redis.log"
      return 1
    fi
    sleep 0.05
  done
  chaos_log "redis did not answer; see $CHAOS_WORK/redis.log"
  return 1
}

redis_kill9() {
  local pid
  pid=$(cat "$CHAOS_WORK/redis.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  fi
}

# A crash of the Redis server, then its restart: what it acknowledged comes back from its
# append-only file, what it had not answered yet may be lost, and every connection is broken.
redis_restart_kill9() {
  redis_kill9
  redis_start
}

redis_destroy() {
  redis_kill9
  rm -rf "$CHAOS_WORK/redis"
}

# Ends every connection that instance N has open to Redis: those the server accepted on the
# instance's host address (CLIENT KILL LADDR), as a network blip or a proxy restart would.
redis_drop_connections() {
  redis_cli CLIENT KILL LADDR "$(host_addr "$1"):$CHAOS_REDIS_PORT"
}

# A MariaDB server of the run's own for the mariadb mode (the sample's payments and the
# idempotency records both live in it), durable as MariaDB is by default: InnoDB flushes its log at
# each commit (innodb_flush_log_at_trx_commit=1), so a kill -9 loses nothing it acknowledged. It
# listens on 127.0.0.1 and the veth addresses, on its own port, directory and socket; the machine's
# MariaDB on 3306 is never touched. It runs as root (its files are in the run's directory), under a
# supervisor that starts it again whenever it dies, as systemd's Restart=always would: a crash is a
# kill -9, whoever makes it.
mariadb_sql() {
  mariadb --no-defaults -S "$CHAOS_WORK/mariadb.sock" -uroot "$@"
}

mariadb_create() {
  local listen="127.0.0.1"
  for i in $(seq 1 "$CHAOS_INSTANCES"); do
    listen="$listen,$(host_addr "$i")"
  done
  mkdir -p "$CHAOS_WORK/mariadb"
  cat >"$CHAOS_WORK/mariadb.cnf" <<EOF
[mariadbd]
user = root
datadir = $CHAOS_WORK/mariadb
socket = $CHAOS_WORK/mariadb.sock
pid-file = $CHAOS_WORK/mariadb/mariadbd.pid
port = $CHAOS_MARIADB_PORT
bind-address = $listen
skip-name-resolve
max_connections = 300
innodb_flush_log_at_trx_commit = 1
innodb_buffer_pool_size = 128M
log-error = $CHAOS_WORK/mariadb.log
EOF
  mariadb-install-db --defaults-file="$CHAOS_WORK/mariadb.cnf" --auth-root-authentication-method=normal \
    >"$CHAOS_WORK/mariadb-install.log" 2>&1
}

mariadb_start() {
  rm -f "$CHAOS_WORK/mariadb.stop"
  (
    while [ ! -f "$CHAOS_WORK/mariadb.stop" ]; do
      mariadbd --defaults-file="$CHAOS_WORK/mariadb.cnf" || true
      sleep 0.1
    done
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$CHAOS_WORK/mariadb-supervisor.pid"
  disown $!
  mariadb_await_up
}

# Waits until the server accepts connections, after a start or a crash recovery.
mariadb_await_up() {
  for _ in $(seq 1 1200); do
    if mariadb_sql -N -e "SELECT 1" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.05
  done
  chaos_log "mariadb did not accept connections; see $CHAOS_WORK/mariadb.log"
  return 1
}

# Lets the instances and the checker in as root from any address, with no password, and creates
# the run's database.
mariadb_setup() {
  mariadb_sql -e "CREATE USER 'root'@'%' IDENTIFIED BY ''; GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION; CREATE DATABASE $CHAOS_DB"
}

mariadb_pid() {
  cat "$CHAOS_WORK/mariadb/mariadbd.pid" 2>/dev/null || true
}

mariadb_kill9() {
  local pid
  pid=$(mariadb_pid)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  fi
}

# A crash of the server: kill -9 (InnoDB recovers from its log when the supervisor starts it again).
mariadb_restart_kill9() {
  mariadb_kill9
  mariadb_await_up
}

# After a crash made elsewhere (the gateway kills the server the moment a slow charge arrives):
# waits until the server, started again by its supervisor, accepts connections.
mariadb_await() {
  mariadb_await_up
}

# Ends every connection that instance N has open to the server, as drop_connections does on
# PostgreSQL.
mariadb_drop_connections() {
  local ids
  if ! ids=$(mariadb_sql -N -e "SELECT id FROM information_schema.processlist WHERE host LIKE '$(instance_addr "$1"):%'"); then
    chaos_log "mariadb-drop-connections: the server is not accepting connections (crashed or restarting)"
    return 0
  fi
  for id in $ids; do
    mariadb_sql -e "KILL CONNECTION $id" >/dev/null 2>&1 || true
  done
}

mariadb_destroy() {
  touch "$CHAOS_WORK/mariadb.stop"
  if [ -f "$CHAOS_WORK/mariadb-supervisor.pid" ]; then
    kill "$(cat "$CHAOS_WORK/mariadb-supervisor.pid")" 2>/dev/null || true
  fi
  mariadb_kill9
  rm -rf "$CHAOS_WORK/mariadb"
}
