#!/usr/bin/env bash
# Fuzzes every input format of `bristle render` with libFuzzer (docs/FUZZING.md).
#
#   scripts/fuzz.sh [SECONDS_PER_FORMAT] [FORMAT...]
#
# Builds bristle-fuzz twice: once normally (the plugins, and the seed writer), once as a
# libFuzzer target (-sanitize=fuzzer, coverage-guided, in .build/fuzz). Then runs libFuzzer
# on each format (default: all, 360 s each) with its own corpus in .build/fuzz-corpus/FORMAT,
# seeded from Tests/ and Examples/. A crash, a hang (-timeout) or a broken promise stops that
# format's run with the input saved as .build/fuzz-crashes/FORMAT-*; the script then exits 1.
# Replay one: .build/fuzz/release/bristle-fuzz .build/fuzz-crashes/FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-360}"
shift || true
formats=("$@")
if [ ${#formats[@]} -eq 0 ]; then formats=(native inkml pointer-arrays pointer-points wacom-csv quickdraw svc); fi

swift build -c release
swift build -c release --build-path .build/fuzz --product bristle-fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DBRISTLE_LIBFUZZER -Xcc -fsanitize=fuzzer-no-link \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld   # gold fails to link the fuzzer runtime
fuzzer=.build/fuzz/release/bristle-fuzz
.build/release/bristle-fuzz --write-seeds .build/fuzz-corpus/seeds --seeds Tests --seeds Examples
mkdir -p .build/fuzz-crashes
status=0
for format in "${formats[@]}"; do
  mkdir -p ".build/fuzz-corpus/$format"
  echo "fuzz.sh: $format for $seconds s"
  if ! BRISTLE_PATH=.build/release BRISTLE_FUZZ_WORK=".build/fuzz-work/$format" \
      "$fuzzer" ".build/fuzz-corpus/$format" ".build/fuzz-corpus/seeds/$format" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
      -dict=.build/fuzz-corpus/seeds/bristle.dict \
      -artifact_prefix=".build/fuzz-crashes/$format-" -print_final_stats=1; then
    echo "fuzz.sh: $format found a problem; see .build/fuzz-crashes/" >&2
    status=1
  fi
done
exit $status
