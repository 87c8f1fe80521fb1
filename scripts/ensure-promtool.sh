#!/usr/bin/env bash
# Makes sure Prometheus' promtool is on the PATH, for the alert-rule tests: installs Debian's
# prometheus package (which ships it) where it is missing. Prints promtool's path.
set -euo pipefail

if ! command -v promtool >/dev/null 2>&1; then
  echo "promtool is not installed; installing Debian's prometheus package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q --no-install-recommends prometheus >&2
fi
command -v promtool
