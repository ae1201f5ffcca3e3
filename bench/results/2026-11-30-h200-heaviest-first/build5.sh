#!/usr/bin/env bash
# Builds OUT/<shape> (default .art/hf4): seed-test's and mixtral-8x7b's full
# layers (build3.sh's sources) with --gemm=generated after the tile-width
# change (128-wide pingpong tiles up to N = 4096). gemm=auto's artifacts of
# the same layers are build3.sh's (.art/hf2/art/gpu: cuBLASLt there).
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/hf4}
BIN=${BIN:-build/bin}
mkdir -p "$OUT"
for shape in seed-test mixtral-8x7b; do
  "$BIN/moe-compile" --quiet ".art/hf2/art/src/$shape.mlir" --target=sm_90a --gemm=generated -o "$OUT/$shape"
done
echo "built $OUT"
