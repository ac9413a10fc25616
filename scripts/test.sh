#!/usr/bin/env bash
# The whole suite, as CI runs it (npm test): system programs, type check, package boundaries, then every test of
# both lanes (vitest.config.ts: unit and e2e; `npm run test:unit` runs the unit lane alone).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
npx tsc -p tsconfig.json --noEmit
npm run --silent lint:deps
npx vitest run "$@"
