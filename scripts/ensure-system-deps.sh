#!/usr/bin/env bash
# Installs the system programs the tests start for real: redis-server and Debian's Chromium, and what the README's
# shell blocks use (jq; ip from iproute2 brings up the loopback of their network namespace).
# Does nothing when they are already there. Never downloads a browser of its own.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x "${TRAWL_CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "installing: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
