#!/usr/bin/env bash
# The one test command (npm test): system programs, type check, package boundaries, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
npx tsc -p tsconfig.json --noEmit
npm run --silent lint:deps
npx vitest run "$@"
