#!/usr/bin/env bash
# Builds (on the machine with MLIR) the artifacts of this folder's device
# calls into OUT (default .art/o):
#   OUT/gg/{on,off}   bench/generated_gemm.py's entries, --gemm=generated
#                     with and without --gemm-epilogue-overlap
#   OUT/art           scripts/gpu-artifacts.sh (every example's full and
#                     check layers, test/gpu's GEMM cases, FP8, adversarial),
#                     overlap on (the default)
#   OUT/off           qwen3-30b-a3b and dsv3-1gpu full layers, overlap off
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/o}
mkdir -p "$OUT/gg"
python3 bench/generated_gemm.py entries "$OUT/gg/entries.mlir"
for v in on off; do
  o=true; [ $v = off ] && o=false
  build/bin/moe-compile --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=generated \
    --gemm-epilogue-overlap=$o -o "$OUT/gg/$v"
done
scripts/gpu-artifacts.sh build "$OUT/art"
EXAMPLES="qwen3-30b-a3b dsv3-1gpu" MOE_GEMM_EPILOGUE_OVERLAP=false \
  scripts/gpu-artifacts.sh build "$OUT/off"
echo "built $OUT"
