#!/usr/bin/env bash
# Peak memory and time of `bristle render` on the large inputs of issue 15, measured with
# /usr/bin/time -v (maximum resident set size), and the exit status under `ulimit -v`.
#
#   scripts/bench-memory.sh [BRISTLE]     (default: .build/release/bristle; build it first)
#
# Inputs are generated into a temporary folder (python3). Each line: case, exit status,
# wall seconds, peak MiB, and the bound the issue sets. docs/PERFORMANCE.md has the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bristle="$(realpath "${1:-.build/release/bristle}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 - <<'PY'
import json, math, struct, zlib
def png(path, w, h, rgba):
    raw = b''.join(b'\x00' + bytes(rgba) * w for _ in range(h))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
def stroke(points, pointer="pen"):
    return {"stroke": {"pointerType": pointer, "events": [{"x": x, "y": y, "pressure": 0.5, "timeStamp": i} for i, (x, y) in enumerate(points)]}}
def script(name, w, h, actions, background=None):
    canvas = {"width": w, "height": h}
    if background: canvas["background"] = background
    json.dump({"canvas": canvas, "actions": actions}, open(name, "w"), separators=(",", ":"))
png("paper.png", 256, 256, (200, 180, 150, 255))
script("bg-16384.json", 16384, 16384, [stroke([(100 + i * 30, 100 + i * 30) for i in range(500)])], "paper.png")
script("wide-65536x4096.json", 65536, 4096, [stroke([(100 + i * 100, 2000 + 1000 * math.sin(i / 10)) for i in range(600)])])
rows = [(x, y) for r, y in enumerate(range(0, 16384 + 1024, 1024)) for x in ((0, 16384) if r % 2 == 0 else (16384, 0))]
script("covering-16384.json", 16384, 16384, [{"brush": {"id": "org.bristle.pencil", "width": 1200}}, stroke(rows, "mouse")])
events = [{"x": 100 + (i % 2000) // 2, "y": 100 + (i // 2000) * 2, "timeStamp": i} for i in range(1000000)]
json.dump({"canvas": {"width": 2048, "height": 1536}, "actions": [{"stroke": {"pointerType": "pen", "events": events}}]},
          open("stroke-1m.json", "w"), separators=(",", ":"))
PY

# measure CASE BOUND [ULIMIT_KIB] INPUT: one line of figures.
measure() {
  local name="$1" bound="$2" limit="$3" input="$4"
  local status=0
  ( if [ "$limit" != "-" ]; then ulimit -v "$limit"; fi
    exec /usr/bin/time -f "%e %M" -o time.txt "$bristle" render "$input" -o out.png ) 2>err.txt || status=$?
  read -r seconds kib < <(tail -1 time.txt)
  printf '%-34s exit %-3s %7s s  %7s MiB  (%s)\n' "$name" "$status" "$seconds" "$((kib / 1024))" "$bound"
  if [ "$status" -ne 0 ]; then sed 's/^/    /' err.txt; fi
  rm -f out.png
}
measure "16384x16384, tiled background" "canvas + 2 GiB = 3072 MiB" - bg-16384.json
measure "16384x16384, strokes cover it" "canvas + 2 GiB = 3072 MiB" - covering-16384.json
measure "65536x4096" "canvas + 1 GiB = 2048 MiB" - wide-65536x4096.json
measure "65536x4096 under ulimit -v 4 GiB" "renders" 4194304 wide-65536x4096.json
measure "16384x16384 under ulimit -v 1.5 GiB" "exit 71 with a figure" 1572864 bg-16384.json
measure "1,000,000-sample stroke" "under 400 MiB" - stroke-1m.json
