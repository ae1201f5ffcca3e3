#!/usr/bin/env bash
# Builds OUT/gen/<shape> (default .art/hf/gen): seed-test's and
# mixtral-8x7b's full layers (build.sh's sources) with --gemm=generated,
# where gemm=auto gives all their grouped GEMMs to cuBLASLt (a call per
# group after the sizes reach the host).
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/hf/gen}
BIN=${BIN:-build/bin}
mkdir -p "$OUT"
for shape in seed-test mixtral-8x7b; do
  "$BIN/moe-compile" --quiet ".art/hf/art/src/$shape.mlir" --target=sm_90a --gemm=generated -o "$OUT/$shape"
done
echo "built $OUT"
