#!/usr/bin/env bash
# The conformance harness's own benchmark (docs/CONFORMANCE.md, "What the harness costs"):
# runs `bristle conform PLUGIN --tier strict --seed 1` for two builds, interleaved round by
# round so that both see the same machine load, and prints the median wall and CPU (user + sys,
# children included) time of each, their ratio, the median time of each group of tests, and
# the median time of every test that only the second build has.
#
#   scripts/bench-conform.sh OLD_BRISTLE OLD_PLUGIN NEW_BRISTLE NEW_PLUGIN [ROUNDS]
#
# Build both with `swift build -c release --product bristle --product BristlePencil` (the old
# one in a `git worktree` of the older commit).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 OLD_BRISTLE OLD_PLUGIN NEW_BRISTLE NEW_PLUGIN [ROUNDS]" >&2; exit 64; }
rounds=${5:-7}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$rounds"); do
  for side in old new; do
    if [ $side = old ]; then bristle=$1 plugin=$2; else bristle=$3 plugin=$4; fi
    /usr/bin/time -f "%e %U %S" -o "$out/$side-$i.time" \
      "$bristle" conform "$plugin" --tier strict --seed 1 --json > "$out/$side-$i.json" || true
  done
done
python3 - "$out" "$rounds" <<'EOF'
import json, statistics, sys
from collections import defaultdict
out, rounds = sys.argv[1], int(sys.argv[2])
summary, tests = {}, {}
for side in ("old", "new"):
    wall, cpu, per = [], [], defaultdict(list)
    for i in range(1, rounds + 1):
        w, u, s = map(float, open(f"{out}/{side}-{i}.time").read().split()[-3:])
        wall.append(w); cpu.append(u + s)
        for r in json.load(open(f"{out}/{side}-{i}.json"))["results"]:
            per[(r["test"], r.get("brush"))].append(r["seconds"])
    summary[side] = (statistics.median(wall), statistics.median(cpu))
    tests[side] = defaultdict(float)
    for (test, _), v in per.items():
        tests[side][test] += statistics.median(v)
for side in ("old", "new"):
    print(f"{side}: median wall {summary[side][0]:.2f} s, median CPU {summary[side][1]:.2f} s over {rounds} rounds")
print(f"ratio new/old: wall {summary['new'][0] / summary['old'][0]:.2f}x, CPU {summary['new'][1] / summary['old'][1]:.2f}x")
print("per group (median seconds of its tests, summed over the plugin's brushes): old, new")
groups = sorted({t.split(".")[0] for side in tests.values() for t in side})
for g in groups:
    o, n = (sum(s for t, s in tests[side].items() if t.split(".")[0] == g) for side in ("old", "new"))
    print(f"  {g:12} {o * 1000:7.0f} ms {n * 1000:7.0f} ms")
print("tests only the new build has (median seconds, summed over the plugin's brushes):")
for t, sec in sorted(((t, s) for t, s in tests["new"].items() if t not in tests["old"]), key=lambda x: -x[1]):
    print(f"  {t:40} {sec * 1000:7.0f} ms")
EOF
