#!/usr/bin/env bash
# One action of the chaos nemesis, called by the soak (io.github.idempotency.chaos.Nemesis):
#   kill N | start N | await N | pause N | resume N | pg-restart | pg-await | drop-connections N | redis-restart |
#   redis-drop-connections N | mariadb-restart | mariadb-await | mariadb-drop-connections N |
#   partition N reject|drop [LINK] | loss N PROBABILITY [LINK] | latency N DELAY_MS [LINK] | heal N
# LINK is pg (the default: the instance's connections to PostgreSQL), mariadb or redis.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

action=$1
shift
case "$action" in
  kill) instance_kill9 "$1" ;;
  start) instance_start "$1" ;;
  await) instance_await "$1" ;;
  pause) instance_signal "$1" STOP ;;
  resume) instance_signal "$1" CONT ;;
  pg-restart) cluster_restart_immediate ;;
  pg-await) cluster_await ;;
  drop-connections) drop_connections "$1" ;;
  redis-restart) redis_restart_kill9 ;;
  mariadb-restart) mariadb_restart_kill9 ;;
  mariadb-await) mariadb_await ;;
  mariadb-drop-connections) mariadb_drop_connections "$1" ;;
  redis-drop-connections) redis_drop_connections "$1" ;;
  partition) partition "$1" "$2" "${3:-pg}" ;;
  loss) packet_loss "$1" "$2" "${3:-pg}" ;;
  latency) latency "$1" "$2" "${3:-pg}" ;;
  heal) net_heal "$1" ;;
  *) echo "unknown fault action: $action" >&2; exit 2 ;;
esac
