#!/usr/bin/env bash
# Import and batch figures for docs/PERFORMANCE.md (issue 14): batch files per second over a
# folder of mixed real recordings (both cores), InkML and Quick, Draw! cost per sample, and the
# peak memory of a streamed Quick, Draw! batch. Generated inputs go to a scratch folder.
#
#   swift build -c release --product bristle && swift build -c release --product BristlePencil
#   scripts/bench-ink.sh [DRAWINGS]
#
# DRAWINGS (default 100000) is the size of the Quick, Draw! file. Needs python3 and GNU time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bristle=${BRISTLE:-$root/.build/release/bristle}
drawings=${1:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A folder of mixed real recordings: every fixture of Tests/Fixtures/ink, 20 copies each.
mkdir -p "$work/mixed"
for i in $(seq 1 20); do
  for f in "$root"/Tests/Fixtures/ink/*; do
    case "$f" in *.md) continue ;; esac
    name=$(basename "$f"); cp "$f" "$work/mixed/$i-$name"
  done
done
files=$(ls "$work/mixed" | wc -l)
start=$(date +%s.%N)
"$bristle" render "$work/mixed" --out-dir "$work/mixed-out" --size 640x480 2>&1 | tail -1
end=$(date +%s.%N)
echo "batch: $files files in $(echo "$end - $start" | bc) s: $(echo "scale=1; $files / ($end - $start)" | bc) files/s"

# InkML and Quick, Draw! cost per sample: a large file rendered on a 16x16 canvas, where
# drawing costs little, so the time is mostly reading, decoding and fitting.
python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
random.seed(1)
with open(f"{work}/big.inkml", "w") as f:
    f.write('<ink xmlns="http://www.w3.org/2003/InkML"><traceFormat><channel name="X"/><channel name="Y"/>'
            '<channel name="F" max="4095"/><channel name="T"/></traceFormat>\n')
    for t in range(1000):
        f.write("<trace>" + ",".join(f"{10000 + i % 97}.5 {20000 + t}.25 {1000 + i % 3000} {t * 1000 + i}" for i in range(1000)) + "</trace>\n")
    f.write("</ink>\n")
with open(f"{work}/one.ndjson", "w") as f:
    xs = [random.randint(0, 255) for _ in range(100000)]
    f.write(json.dumps({"word": "x", "drawing": [[xs[i:i + 1000], xs[i:i + 1000], list(range(1000))] for i in range(0, 100000, 1000)]}) + "\n")
PY
for input in big.inkml:1000000 one.ndjson:100000; do
  file=${input%%:*}; samples=${input##*:}
  /usr/bin/time -o "$work/time" -f "%e %M" "$bristle" render "$work/$file" -o "$work/x.png" --size 16x16 >/dev/null 2>&1
  out=$(tail -1 "$work/time")
  secs=${out% *}; kb=${out#* }
  echo "$file: $samples samples in $secs s: $(echo "scale=2; $secs * 1000000 / $samples" | bc) us per sample, peak $((kb / 1024)) MiB"
done

# A Quick, Draw! file of DRAWINGS drawings, every one rendered (streamed, both cores).
python3 - "$work" "$drawings" <<'PY'
import json, random, sys
work, n = sys.argv[1], int(sys.argv[2])
random.seed(2)
with open(f"{work}/many.ndjson", "w") as f:
    for i in range(n):
        strokes = [[[random.randint(0, 255) for _ in range(12)], [random.randint(0, 255) for _ in range(12)]] for _ in range(4)]
        f.write(json.dumps({"word": "cat", "key_id": str(i), "drawing": strokes}, separators=(",", ":")) + "\n")
PY
/usr/bin/time -o "$work/time" -f "%e %M" "$bristle" render "$work/many.ndjson" --out-dir "$work/many-out" --size 64x64 >/dev/null 2>&1
out=$(tail -1 "$work/time")
echo "quickdraw: $drawings drawings ($(du -m "$work/many.ndjson" | cut -f1) MB) in ${out% *} s, peak $(( ${out#* } / 1024 )) MiB"
