#!/usr/bin/env bash
# Makes sure headless Chromium and its WebDriver are installed, for the dashboard's browser test:
# installs Debian's chromium and chromium-driver packages where they are missing. Prints the
# paths of the browser and of the driver.
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "Chromium or its driver is not installed; installing Debian's chromium and chromium-driver" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-dejavu-core >&2
fi
command -v chromium
command -v chromedriver
