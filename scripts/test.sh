#!/usr/bin/env bash
# The README's test command: installs missing system packages, builds with warnings treated
# as failures (the project's own sources and tests), then runs every test: `swift test`, then
# the browser tests of `bristle play` in headless Chromium (Tests/Browser).
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
# `swift test` runs an XCTest half and a swift-testing half; a half with no tests prints
# "Executed 0 tests" as if nothing had run. Run only the halves that have tests, decided from
# the sources, so a test added with the other framework later is never skipped silently.
halves=()
grep -rqs --include='*.swift' '^import XCTest' Tests || halves+=(--disable-xctest)
grep -rqs --include='*.swift' '^import Testing' Tests || halves+=(--disable-swift-testing)
swift test ${halves[@]+"${halves[@]}"} "$@"
python3 Tests/Browser/play_browser_test.py "$(swift build --show-bin-path)"
