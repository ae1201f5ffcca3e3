#!/usr/bin/env bash
# Builds (on the machine with MLIR) the artifacts of this folder's device
# call into OUT (default .art/p):
#   OUT/art        scripts/gpu-artifacts.sh: every example's full and check
#                  layers, test/gpu's GEMM cases, FP8, adversarial (pingpong
#                  on, the default)
#   OUT/off        qwen3-30b-a3b and dsv3-1gpu full layers, --gemm-pingpong=false
#   OUT/gemm-ctas8 test/gpu/Inputs/generated-grouped-gemm.mlir on 8 CTAs,
#                  pingpong on and off (OUT/gemm-ctas8/{on,off})
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/p}
scripts/gpu-artifacts.sh build "$OUT/art"
EXAMPLES="qwen3-30b-a3b dsv3-1gpu" MOE_GEMM_PINGPONG=false \
  scripts/gpu-artifacts.sh build "$OUT/off"
mkdir -p "$OUT/gemm-ctas8"
for v in on off; do
  p=true; [ $v = off ] && p=false
  build/bin/moe-compile --quiet --target=sm_90a --gemm=generated --gemm-ctas=8 --gemm-pingpong=$p \
    test/gpu/Inputs/generated-grouped-gemm.mlir -o "$OUT/gemm-ctas8/$v"
done
echo "built $OUT"
