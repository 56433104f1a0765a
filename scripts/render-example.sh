#!/usr/bin/env bash
# The README's first command: builds Bristle and renders a real pen recording through the
# reference pencil into out/wacom-pen.png (and the hello example into out/hello.png, the shape
# tools into out/shapes.png).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
mkdir -p out
swift build -c release --product bristle
swift build -c release --product BristlePencil
swift build -c release --product BristleShapes
bin=$(swift build -c release --show-bin-path)
"$bin/bristle" render Examples/strokes/wacom-pen.json -o out/wacom-pen.png --verbose
"$bin/bristle" render Examples/strokes/hello.json -o out/hello.png --verbose
"$bin/bristle" render Examples/strokes/shapes.json -o out/shapes.png --verbose
echo "Wrote out/wacom-pen.png, out/hello.png and out/shapes.png"
