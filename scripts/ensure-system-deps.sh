#!/usr/bin/env bash
# Installs the system programs the tests start for real: redis-server and Debian's Chromium.
# Does nothing when they are already there. Never downloads a browser of its own.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x "${TRAWL_CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "installing: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
