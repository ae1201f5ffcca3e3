#!/usr/bin/env bash
# Builds (on the machine with MLIR) the artifacts of the router change
# (x times the router weight's three bf16 parts as one GEMM) into OUT
# (default .art/rt):
#   OUT/art     scripts/gpu-artifacts.sh: every example's full and check
#               layers, GEMM cases, FP8, NaN and adversarial layers
#   OUT/split   test/gpu/Inputs/split-matmul{,-bf16}.mlir, sm_90a and cpu
# (.art/ps/art, from build.sh, is the same tree before the change.)
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/rt}
BIN=${BIN:-build/bin}
mkdir -p "$OUT/split"
for f in split-matmul split-matmul-bf16; do
  "$BIN/moe-compile" --quiet --target=sm_90a test/gpu/Inputs/$f.mlir -o "$OUT/split/$f-gpu"
  "$BIN/moe-compile" --quiet --target=cpu test/gpu/Inputs/$f.mlir -o "$OUT/split/$f-cpu"
done
scripts/gpu-artifacts.sh "$(dirname "$BIN")" "$OUT/art"
echo "built $OUT"
