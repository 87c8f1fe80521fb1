# Sourced by bench/run.sh and bench/minimal.sh: the database server the applications run on,
# BENCH_DATABASE=postgres (the default: PostgreSQL on 127.0.0.1:5432, user postgres) or mariadb
# (MariaDB on 127.0.0.1:3306, user root, empty password). Sets DATABASE.
#   db_ensure             installs and starts the server if it is missing (scripts/ensure-*.sh)
#   db_sql SQL [NAME]     runs SQL in database NAME (the server's default one if none); prints the
#                         rows unaligned, columns separated by whitespace
#   db_create NAME        creates database NAME
#   db_drop NAME          drops database NAME, closing its connections on PostgreSQL
#   db_url NAME           the JDBC URL of database NAME
#   db_describe           one line on the server, for the report's machine line
#   db_label              its name in the reports' store column

DATABASE=${BENCH_DATABASE:-postgres}
case $DATABASE in
  postgres | mariadb) ;;
  *)
    echo "BENCH_DATABASE must be postgres or mariadb, not $DATABASE" >&2
    exit 1
    ;;
esac

db_ensure() {
  scripts/ensure-"$DATABASE".sh >/dev/null
}

db_sql() {
  if [ "$DATABASE" = postgres ]; then
    psql -tA -F ' ' -h 127.0.0.1 -U postgres -d "${2:-postgres}" -c "$1"
  else
    mariadb -N -B -h 127.0.0.1 -P 3306 -u root ${2:+"$2"} -e "$1"
  fi
}

db_create() {
  db_sql "CREATE DATABASE $1" >/dev/null
}

db_drop() {
  if [ "$DATABASE" = postgres ]; then
    db_sql "DROP DATABASE IF EXISTS $1 WITH (FORCE)" >/dev/null
  else
    db_sql "DROP DATABASE IF EXISTS $1" >/dev/null
  fi
}

db_url() {
  if [ "$DATABASE" = postgres ]; then
    echo "jdbc:postgresql://127.0.0.1:5432/$1"
  else
    echo "jdbc:mariadb://127.0.0.1:3306/$1"
  fi
}

db_describe() {
  if [ "$DATABASE" = postgres ]; then
    echo "$(db_sql 'SHOW server_version') PostgreSQL on loopback"
  else
    local flush binlog
    flush=$(db_sql "SELECT @@innodb_flush_log_at_trx_commit")
    binlog=$(db_sql "SELECT IF(@@log_bin, 'on', 'off')")
    echo "MariaDB $(db_sql 'SELECT VERSION()') on loopback (innodb_flush_log_at_trx_commit=$flush, binary log $binlog)"
  fi
}

db_label() {
  if [ "$DATABASE" = postgres ]; then echo PostgreSQL; else echo MariaDB; fi
}
