#!/usr/bin/env bash
# Makes sure a PostgreSQL server listens on 127.0.0.1:5432 with trust authentication and a
# database named "test": installs it from Debian's packages if absent and starts the cluster.
set -euo pipefail

ensure_postgres() {
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "PostgreSQL is not installed; installing it from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q postgresql
    local version
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    local hba="/etc/postgresql/$version/main/pg_hba.conf"
    sed -i -E 's/^(local|host)(\s+all\s+all\s+.*\s)(peer|md5|scram-sha-256)$/\1\2trust/' "$hba"
    sed -i -E 's/^(local\s+all\s+postgres\s+)peer$/\1trust/' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload 2>/dev/null || true
  fi
  if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
    echo "Starting the local PostgreSQL cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
  fi
  for _ in $(seq 1 30); do
    pg_isready -h 127.0.0.1 -p 5432 -q && break
    sleep 1
  done
  pg_isready -h 127.0.0.1 -p 5432
  if ! psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1; then
    psql -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE test"
  fi
}


ensure_postgres
