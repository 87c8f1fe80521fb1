#!/usr/bin/env bash
# Makes sure a MariaDB server listens on 127.0.0.1:3306, where user root logs in without a password,
# with a database named "test": installs it from Debian's packages if absent and starts the server.
set -euo pipefail

port_open() {
  (exec 3<>/dev/tcp/127.0.0.1/3306) 2>/dev/null
}

client() {
  if command -v mariadb >/dev/null 2>&1; then mariadb "$@"; else mysql "$@"; fi
}

server() {
  if command -v mariadbd >/dev/null 2>&1; then command -v mariadbd; else command -v mysqld; fi
}

if ! command -v mariadbd >/dev/null 2>&1 && ! command -v mysqld >/dev/null 2>&1; then
  echo "MariaDB is not installed; installing it from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q mariadb-server mariadb-client
fi
if ! port_open; then
  echo "Starting MariaDB on 127.0.0.1:3306"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  nohup "$(server)" --user=mysql --bind-address=127.0.0.1 --port=3306 >/tmp/mariadb-3306.log 2>&1 &
fi
for _ in $(seq 1 30); do
  port_open && break
  sleep 1
done
if ! port_open; then
  echo "MariaDB did not start on 127.0.0.1:3306; see /tmp/mariadb-3306.log" >&2
  exit 1
fi
# Debian's root logs in through the server's socket only: let it in over TCP from loopback too.
if ! client -h 127.0.0.1 -P 3306 -u root -e "SELECT 1" >/dev/null 2>&1; then
  echo "Letting root log in to MariaDB from 127.0.0.1 without a password"
  client -u root -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
    GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION; FLUSH PRIVILEGES;"
fi
client -h 127.0.0.1 -P 3306 -u root -e "CREATE DATABASE IF NOT EXISTS test"
