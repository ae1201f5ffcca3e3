#!/usr/bin/env bash
# Builds (on the machine with MLIR) the artifacts of this folder's device
# calls into OUT (default .art/pk):
#   OUT/art        scripts/gpu-artifacts.sh with the defaults (bf16 weight
#                  gradients with 128 x 128 tiles now pingpong; host waits
#                  deferred): every example's full and check layers, the
#                  GEMM cases (also on 8 CTAs), FP8, NaN, adversarial
#   OUT/gg         bench/generated_gemm.py's entries, --gemm=generated,
#                  --gemm=cublaslt, and --gemm=generated --gemm-pingpong=false
#                  (both consumers share every tile: the weight gradients
#                  as before this change)
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/pk}
BIN=${BIN:-build/bin}
mkdir -p "$OUT/gg"
python3 bench/generated_gemm.py entries "$OUT/gg/entries.mlir"
for g in generated cublaslt; do
  "$BIN/moe-compile" --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=$g -o "$OUT/gg/$g"
done
"$BIN/moe-compile" --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=generated \
  --gemm-pingpong=false -o "$OUT/gg/cooperative"
scripts/gpu-artifacts.sh "$(dirname "$BIN")" "$OUT/art"
echo "built $OUT"
