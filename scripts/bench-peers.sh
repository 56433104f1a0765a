#!/usr/bin/env bash
# Bristle against the cairo, AGG and libmypaint peers on the identical workload
# (../shared/bench/peers/WORKLOAD.md), on this machine, in one session:
#   1. builds the peers (their build.sh apt-installs what they need) and bristle (release);
#   2. runs bristle and the peers INTERLEAVED for ROUNDS rounds (pinned with taskset when
#      available) and prints paired ratios per case: for every round, peer time / bristle
#      time (> 1 means bristle is faster), then the median and range over the rounds;
#   3. compares our PNGs with cairo's and AGG's (the peers' bin/pngdiff) against the
#      tolerances T7-T9 of ../shared/research/performance-anchors.md section 4 (a report:
#      pass/fail is printed, the script does not fail on it);
#   4. counts instructions with callgrind (timed region only) for bristle and the peers.
# This is a benchmark report, not a test.
#
# Usage: scripts/bench-peers.sh [ROUNDS]        (default 5)
# Environment: BRISTLE_SHARED  the shared/ folder (default: ../shared beside the repository)
#              BENCH_OUT       where results go (default .build/bench-peers)
#              REPS            repetitions per run (default 5)
#              CG_SEGMENTS     segments for the callgrind runs (default 9999; 0 skips callgrind)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${BRISTLE_SHARED:-$ROOT/../shared}"
PEERS="$SHARED/bench/peers"
ROUNDS="${1:-5}"
REPS="${REPS:-5}"
CG_SEGMENTS="${CG_SEGMENTS:-9999}"
OUT="${BENCH_OUT:-$ROOT/.build/bench-peers}"

if [ ! -f "$PEERS/WORKLOAD.md" ]; then
    echo "bench-peers: no peers at $PEERS (clone the repository beside shared/, or set BRISTLE_SHARED)" >&2
    exit 66
fi
case "$ROUNDS" in ''|*[!0-9]*|0) echo "bench-peers: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 64 ;; esac

echo "== building the peers ($PEERS/build.sh)" >&2
bash "$PEERS/build.sh" >&2
echo "== building bristle (release)" >&2
(cd "$ROOT" && swift build -c release >&2)
BRISTLE="$(cd "$ROOT" && swift build -c release --show-bin-path)/bristle"
BIN="$PEERS/bin"

PIN=""
if command -v taskset >/dev/null && taskset -c 1 true 2>/dev/null; then PIN="taskset -c 1"; fi
mkdir -p "$OUT/png"
RUNS="$OUT/interleaved.jsonl"
: > "$RUNS"

# Tags every JSON line of a run with its round.
tag() { sed "s/^{/{\"round\":$1,/" >> "$RUNS"; }

STROKE_CASES="stroke_segments_opaque stroke_segments_alpha50"
# Cases the cairo and AGG peers run too (paired like the strokes).
SHARED_CASES="$STROKE_CASES stroke_polyline_w10_opaque stroke_polyline_w10_alpha50 dash_polyline_w4 ellipse_fill ellipse_stroke rect_fill rect_stroke"
OWN_CASES="stroke_pencil_product event_latency_pencil_2048x1536 event_latency_pencil_4096x3072 event_latency_rectangle_2048x1536 event_latency_rectangle_4096x3072 png_export_2048x1536 png_export_2048x1536_nosync"
# Once per run (it takes seconds and has no peer).
ONCE_CASES="history_100_strokes_4096x3072"

echo "== $ROUNDS interleaved rounds, $REPS reps per run${PIN:+, pinned ($PIN)}" >&2
for r in $(seq 1 "$ROUNDS"); do
    for c in $SHARED_CASES; do
        # Alternate who goes first so neither side always runs on a warmer machine.
        if [ $((r % 2)) -eq 1 ]; then
            $PIN "$BRISTLE" bench --case "$c" --reps "$REPS" --json | tag "$r"
            $PIN "$BIN/cairo_bench" --case "$c" --reps "$REPS" --png "" | tag "$r"
            $PIN "$BIN/agg_bench" --case "$c" --reps "$REPS" --png "" | tag "$r"
        else
            $PIN "$BIN/agg_bench" --case "$c" --reps "$REPS" --png "" | tag "$r"
            $PIN "$BIN/cairo_bench" --case "$c" --reps "$REPS" --png "" | tag "$r"
            $PIN "$BRISTLE" bench --case "$c" --reps "$REPS" --json | tag "$r"
        fi
    done
    OMP_NUM_THREADS=1 $PIN "$BIN/mypaint_bench" --case stroke_round_matched_opaque --reps "$REPS" --png "" | tag "$r"
    for c in $OWN_CASES; do
        $PIN "$BRISTLE" bench --case "$c" --reps "$REPS" --json | tag "$r"
    done
    echo "round $r/$ROUNDS done, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done
for c in $ONCE_CASES; do
    "$BRISTLE" bench --case "$c" --reps 1 --json | tag 0
done

echo "== pictures" >&2
PICTURE_CASES="$STROKE_CASES stroke_polyline_w10_opaque stroke_polyline_w10_alpha50 rect_fill rect_stroke"
for c in $PICTURE_CASES; do
    "$BRISTLE" bench --case "$c" --reps 1 --png "$OUT/png" > /dev/null
    "$BIN/cairo_bench" --case "$c" --reps 1 --png "$OUT/png" > /dev/null
    "$BIN/agg_bench" --case "$c" --reps 1 --png "$OUT/png" > /dev/null
done
DIFFS="$OUT/pngdiff.jsonl"
: > "$DIFFS"
for c in $PICTURE_CASES; do
    for peer in cairo agg; do
        "$BIN/pngdiff" "$OUT/png/bristle_$c.png" "$OUT/png/${peer}_$c.png" \
            | sed "s/^{/{\"case\":\"$c\",\"peer\":\"$peer\",/" >> "$DIFFS"
    done
done

CG="$OUT/callgrind.jsonl"
: > "$CG"
if [ "$CG_SEGMENTS" != 0 ] && command -v valgrind >/dev/null; then
    echo "== callgrind, $CG_SEGMENTS segments (timed region only)" >&2
    # valgrind 3.19 cannot read the DWARF 5 debug info Swift emits: run a copy without it.
    CGBIN="$OUT/callgrind-bin"
    rm -rf "$CGBIN"; mkdir -p "$CGBIN"
    cp "$BRISTLE" "$(dirname "$BRISTLE")"/*.so "$CGBIN/"
    strip --strip-debug "$CGBIN/bristle" "$CGBIN"/*.so
    cg() {  # label case command...
        local label="$1" cs="$2"; shift 2
        local f="$OUT/callgrind.$label.out"
        valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$f" "$@" --case "$cs" \
            --reps 1 --warmup 1 --segments "$CG_SEGMENTS" --callgrind > /dev/null 2> "$f.log"
        local ir; ir=$(grep -E "^(summary|totals):" "$f" | head -1 | awk '{print $2}')
        echo "{\"peer\":\"$label\",\"case\":\"$cs\",\"segments\":$CG_SEGMENTS,\"Ir\":$ir}" >> "$CG"
    }
    cg bristle stroke_segments_opaque "$CGBIN/bristle" bench --json
    cg bristle stroke_segments_alpha50 "$CGBIN/bristle" bench --json
    cg bristle stroke_pencil_product "$CGBIN/bristle" bench --json
    cg bristle ellipse_fill "$CGBIN/bristle" bench --json
    cg bristle rect_fill "$CGBIN/bristle" bench --json
    cg cairo ellipse_fill "$BIN/cairo_bench" --png ""
    cg cairo rect_fill "$BIN/cairo_bench" --png ""
    cg cairo stroke_segments_opaque "$BIN/cairo_bench" --png ""
    cg cairo stroke_segments_alpha50 "$BIN/cairo_bench" --png ""
    cg agg stroke_segments_opaque "$BIN/agg_bench" --png ""
    OMP_NUM_THREADS=1 cg libmypaint stroke_round_matched_opaque "$BIN/mypaint_bench" --png ""
fi

echo >&2
python3 - "$RUNS" "$DIFFS" "$CG" <<'PY'
import json, statistics, sys

runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
diffs = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{')]
cg = [json.loads(l) for l in open(sys.argv[3]) if l.startswith('{')]

def cell(d, key):
    return d[key] if key in d else None

by_round = {}
for d in runs:
    by_round.setdefault(d['round'], {})[(d['peer'], d['case'])] = d
rounds = sorted(r for r in by_round if r > 0)  # round 0: the once-per-run cases
print(f"Paired ratios over {len(rounds)} rounds (peer median / bristle median in the same round; > 1 = bristle faster)")
print("wall = CLOCK_MONOTONIC medians; cpu = process CPU-time medians (less sensitive to other load)")
print(f"{'bristle case':26} {'vs':38} {'wall median':>11} {'wall range':>15} {'cpu median':>10} {'cpu range':>15}")
shared = ['stroke_segments_opaque', 'stroke_segments_alpha50', 'stroke_polyline_w10_opaque',
          'stroke_polyline_w10_alpha50', 'dash_polyline_w4', 'ellipse_fill', 'ellipse_stroke',
          'rect_fill', 'rect_stroke']
pairs = [(c, p, c) for c in shared for p in ('cairo', 'agg')] + [
         ('stroke_segments_opaque', 'libmypaint', 'stroke_round_matched_opaque'),
         ('stroke_pencil_product', 'libmypaint', 'stroke_round_matched_opaque'),
         ('stroke_pencil_product', 'cairo', 'stroke_segments_opaque')]
for ours, peer, theirs in pairs:
    wall, cpu = [], []
    for r in rounds:
        m = by_round[r]
        if ('bristle', ours) in m and (peer, theirs) in m:
            wall.append(m[(peer, theirs)]['median_ms'] / m[('bristle', ours)]['median_ms'])
            cpu.append(m[(peer, theirs)]['cpu_median_ms'] / m[('bristle', ours)]['cpu_median_ms'])
    if wall:
        print(f"{ours:26} {peer + ' ' + theirs:38} {statistics.median(wall):10.2f}x {min(wall):6.2f}x-{max(wall):6.2f}x"
              f" {statistics.median(cpu):9.2f}x {min(cpu):6.2f}x-{max(cpu):6.2f}x")

print()
print("Times (ms): median of the per-round medians, best rep over all rounds")
print(f"{'peer':11} {'case':34} {'median':>9} {'min':>9} {'cpu':>9}  extra")
seen = {}
for d in runs:
    seen.setdefault((d['peer'], d['case']), []).append(d)
for (peer, case), ds in sorted(seen.items()):
    med = statistics.median(x['median_ms'] for x in ds)
    best = min(x['min_ms'] for x in ds)
    cpu = statistics.median(x['cpu_median_ms'] for x in ds)
    extra = ''
    if 'history_bytes' in ds[0]:
        h = ds[0]
        extra = (f"history {h['history_bytes'] / 2**20:.1f} MiB (full snapshots {h['full_snapshot_bytes'] / 2**30:.2f} GiB), "
                 f"undo p50 {h['undo_p50_ms']:.3f} ms, redo p50 {h['redo_p50_ms']:.3f} ms, exact {h['round_trip_exact']}")
    elif 'p50_us' in ds[0]:
        extra = (f"p50 {statistics.median(x['p50_us'] for x in ds):.2f} us, "
                 f"p99 {statistics.median(x['p99_us'] for x in ds):.2f} us per event")
    elif ds[0]['items'] > 1:
        extra = f"{med * 1e3 / ds[0]['items']:.2f} us/{ds[0]['item']}"
    print(f"{peer:11} {case:34} {med:9.3f} {best:9.3f} {cpu:9.3f}  {extra}")

if cg:
    print()
    print("Instructions (callgrind, timed region only)")
    for d in cg:
        shape = d['case'].startswith(('ellipse', 'rect'))
        per = d['Ir'] / (1000 if shape else d['segments'])
        unit = 'shape' if shape else 'event' if d['peer'] == 'libmypaint' or d['case'] == 'stroke_pencil_product' else 'segment'
        print(f"{d['peer']:11} {d['case']:34} {d['Ir']:>13,} Ir  {per:9,.0f} per {unit}")

print()
print("Pixels against the peers (performance-anchors.md section 4); a report, not a test")
def find(case, peer):
    for d in diffs:
        if d['case'] == case and d['peer'] == peer:
            return d
    return None
def pct(d, key):
    return 100.0 * d[key] / max(1, d['ink_pixels'])
checks = []
for case, mean_cairo in (('stroke_segments_opaque', 0.6), ('stroke_segments_alpha50', 1.2)):
    c, a = find(case, 'cairo'), find(case, 'agg')
    if c:
        print(f"  {case} vs cairo: max {c['max_abs_diff']}, mean over ink {c['mean_abs_diff_over_ink_pixels']:.3f}, "
              f">2: {pct(c, 'px_diff_gt2'):.2f}%, >8: {pct(c, 'px_diff_gt8'):.2f}% of {c['ink_pixels']} ink px")
        checks.append((f"T9 {case} vs cairo: mean over ink <= {mean_cairo}/255", c['mean_abs_diff_over_ink_pixels'] <= mean_cairo))
        checks.append((f"T9 {case} vs cairo: <= 12% of ink px > 2/255", pct(c, 'px_diff_gt2') <= 12))
    if a:
        print(f"  {case} vs AGG:   max {a['max_abs_diff']}, mean over ink {a['mean_abs_diff_over_ink_pixels']:.3f}, "
              f">2: {pct(a, 'px_diff_gt2'):.2f}%, >8: {pct(a, 'px_diff_gt8'):.2f}% of {a['ink_pixels']} ink px")
        checks.append((f"T9 {case} vs AGG: mean over ink <= 0.3/255", a['mean_abs_diff_over_ink_pixels'] <= 0.3))
        checks.append((f"T9 {case} vs AGG: <= 1.5% of ink px > 8/255", pct(a, 'px_diff_gt8') <= 1.5))
def show(case, peer, d):
    print(f"  {case} vs {peer}: max {d['max_abs_diff']}, mean over ink {d['mean_abs_diff_over_ink_pixels']:.3f}, "
          f">2: {pct(d, 'px_diff_gt2'):.2f}%, >8: {pct(d, 'px_diff_gt8'):.2f}% of {d['ink_pixels']} ink px")
for case in ('rect_fill', 'rect_stroke'):
    for peer, limit in (('cairo', 5), ('agg', 3)):
        d = find(case, peer)
        if d:
            show(case, peer, d)
            checks.append((f"T7 {case} vs {peer}: max abs diff <= {limit}/255", d['max_abs_diff'] <= limit))
for case in ('stroke_polyline_w10_opaque', 'stroke_polyline_w10_alpha50'):
    d = find(case, 'cairo')
    if d:
        show(case, 'cairo', d)
        checks.append((f"T8 {case} vs cairo: mean over ink <= 0.3/255", d['mean_abs_diff_over_ink_pixels'] <= 0.3))
        checks.append((f"T8 {case} vs cairo: <= 0.5% of ink px > 2/255", pct(d, 'px_diff_gt2') <= 0.5))
for label, ok in checks:
    print(f"  {'PASS' if ok else 'FAIL'}  {label}")
PY
echo >&2
echo "bench-peers: raw results in $OUT (interleaved.jsonl, pngdiff.jsonl, callgrind.jsonl, png/)" >&2
