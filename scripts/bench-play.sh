#!/usr/bin/env bash
# `bristle play`'s input-to-paint in headless Chromium at 1,000 pen events/s: browser test 5,
# ROUNDS times (default 5), each round this server then the `--stand-in` floor, back to back.
# Prints one Markdown table row per round (the columns of docs/PERFORMANCE.md) and keeps the
# figures as JSON in OUT (default /tmp/bristle-play-bench.json). Then the same ROUNDS without a
# browser (scripts/bench-play-host.py: a WebSocket client at 1,000 events/s, and one request at
# a time for the wake-ups per request), figures in OUT with -host before .json.
#
#   scripts/bench-play.sh [ROUNDS] [OUT]     (builds the release configuration first)
#
# BRISTLE_PLAY_REALTIME=0 in the environment runs the servers without real-time scheduling
# (docs/CLI.md); the table's scheduling column says which was in effect.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
out="${2:-/tmp/bristle-play-bench.json}"
swift build -c release 2>&1 | tail -1
BRISTLE_PLAY_ROUNDS="$rounds" BRISTLE_PLAY_BENCH="$out" python3 Tests/Browser/play_browser_test.py \
    .build/release PlayPageTests.test_5_coalesced_samples_and_latency_at_1000_events_per_second
python3 - "$out" <<'PY'
import json, sys
figures = json.load(open(sys.argv[1]))
print("| round | load | scheduling | ours: inputToPaint p50 / p99 | inputToFrame p50 / p99 | sent to answer p50 / p99 "
      "| host event-to-patch p50 / p99 | patch bytes (pixels) per event | stand-in: inputToPaint p50 / p99 "
      "| inputToFrame p50 / p99 | sent to answer p50 / p99 |")
print("|---:|---:|---|---|---|---|---|---|---|---|---|")
ms = lambda q: f"{q['p50']:.1f} / {q['p99']:.1f} ms"
for n, r in enumerate(figures["rounds"], 1):
    ours, floor = r["ours"], r["standIn"]
    host = ours["host"]["eventToPatchMs"]
    print(f"| {n} | {ours['load']:.1f} | {ours['host']['scheduling']['worker']} | {ms(ours['browser']['inputToPaintMs'])} "
          f"| {ms(ours['browser']['inputToFrameMs'])} | {ms(ours['browser']['hopsMs']['toAnswer'])} "
          f"| {host['p50']:.2f} / {host['p99']:.1f} ms | {ours['patchBytesPerEvent']:,} ({ours['patchPixelsPerEvent']}) "
          f"| {ms(floor['browser']['inputToPaintMs'])} | {ms(floor['browser']['inputToFrameMs'])} "
          f"| {ms(floor['browser']['hopsMs']['toAnswer'])} |")
PY
python3 scripts/bench-play-host.py .build/release "$rounds" "${out%.json}-host.json"
