#!/usr/bin/env bash
# Builds (on the machine with MLIR) the artifacts of this folder's device
# calls into OUT (default .art/ps):
#   OUT/art        scripts/gpu-artifacts.sh: every example's full and check
#                  layers, test/gpu's GEMM cases, FP8, adversarial (default
#                  options: pingpong on, TMA stores)
#   OUT/m3, m3c8   sanitizer roots for memcheck and initcheck (--gemm=generated,
#                  3 stages, no TMA stores: pingpong stores by threads):
#                  test/gpu/Inputs/generated-grouped-gemm.mlir as
#                  ROOT/gemm/{gpu,cpu,in}; m3c8 on 8 CTAs, so that the
#                  consumers take turns over several tiles
#   OUT/r2, r2c8   the same at 2 stages, for racecheck
#   OUT/gg         bench/generated_gemm.py's entries, --gemm=generated and
#                  --gemm=cublaslt
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/ps}
BIN=${BIN:-build/bin}
gemms=test/gpu/Inputs/generated-grouped-gemm.mlir
for root in m3 m3c8 r2 r2c8; do
  stages=3; [[ $root == r2* ]] && stages=2
  ctas=132; [[ $root == *c8 ]] && ctas=8
  mkdir -p "$OUT/$root/gemm"
  python3 test/gpu/Inputs/write-group-sizes.py "$OUT/$root/gemm/in"
  "$BIN/moe-compile" --quiet "$gemms" --target=sm_90a --gemm=generated --gemm-max-stages=$stages \
    --gemm-tma-store=false --gemm-ctas=$ctas -o "$OUT/$root/gemm/gpu"
  "$BIN/moe-compile" --quiet "$gemms" --target=cpu -o "$OUT/$root/gemm/cpu"
done
mkdir -p "$OUT/gg"
python3 bench/generated_gemm.py entries "$OUT/gg/entries.mlir"
for g in generated cublaslt; do
  "$BIN/moe-compile" --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=$g -o "$OUT/gg/$g"
done
scripts/gpu-artifacts.sh "$(dirname "$BIN")" "$OUT/art"
echo "built $OUT"
