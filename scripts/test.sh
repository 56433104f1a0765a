#!/usr/bin/env bash
# The README's test command: installs missing system packages, builds with warnings treated
# as failures (the project's own sources and tests), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log"
if grep -E "^$(pwd)/(Sources|Plugins|Tests|include)/.*: warning:" "$log"; then
  echo "test.sh: the build has warnings (above); fix them" >&2
  exit 1
fi
swift test "$@"
