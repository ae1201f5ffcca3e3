#!/usr/bin/env bash
# Artifacts of this folder's device calls, compiled on the MLIR machine
# (BIN: moe-opt / moe-compile of the commit named in each call's script).
#   OUT/fw      FP8 blockwise weight inputs (K-major copies), qwen3-30b-a3b and
#               mixtral-8x7b, full size and check layers (gpu-artifacts.sh)
#   OUT/gg/{bf16,fp8b}  bench/generated_gemm.py entries, bf16 and FP8
#               blockwise, --gemm=generated
#   OUT/kw      test/gpu/Inputs/fp8-weight-grad.mlir (the FP8 weight-gradient
#               cases): gpu-s2 at 2 stages, thread-stored tiles (racecheck);
#               gpu as test/gpu compiles it (from run2 on)
#   OUT/kf      test/gpu/Inputs/fp8-grouped-matmul.mlir (FP8 grouped matmuls)
#               and fp8-wgrad.mlir (placement's FP8 weight gradients), as
#               test/gpu compiles them (from run2 on)
set -euo pipefail
BIN=${BIN:-build/bin}
OUT=${1:?OUT}
what=${2:-all}
if [ "$what" = all ] || [ "$what" = fw ]; then
  MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1 EXAMPLES="qwen3-30b-a3b mixtral-8x7b" \
    scripts/gpu-artifacts.sh "$(dirname "$BIN")" "$OUT/fw"
fi
if [ "$what" = all ] || [ "$what" = gg ]; then
  mkdir -p "$OUT/gg"
  python3 bench/generated_gemm.py entries "$OUT/gg/bf16.mlir"
  python3 bench/generated_gemm.py entries --fp8 blockwise "$OUT/gg/fp8b.mlir"
  "$BIN/moe-compile" --quiet "$OUT/gg/bf16.mlir" --target=sm_90a --gemm=generated -o "$OUT/gg/bf16"
  "$BIN/moe-compile" --quiet "$OUT/gg/fp8b.mlir" --target=sm_90a --gemm=generated -o "$OUT/gg/fp8b"
fi
if [ "$what" = all ] || [ "$what" = kw ]; then
  mkdir -p "$OUT/kw"
  python3 test/gpu/Inputs/write-fp8-group-sizes.py "$OUT/kw/in"
  "$BIN/moe-compile" --quiet test/gpu/Inputs/fp8-weight-grad.mlir --target=sm_90a --gemm=generated \
    --gemm-max-stages=2 --gemm-tma-store=false -o "$OUT/kw/gpu-s2"
  "$BIN/moe-compile" --quiet test/gpu/Inputs/fp8-weight-grad.mlir --target=sm_90a --gemm=generated \
    -o "$OUT/kw/gpu"
  "$BIN/moe-compile" --quiet test/gpu/Inputs/fp8-weight-grad.mlir --target=cpu -o "$OUT/kw/cpu"
fi
if [ "$what" = all ] || [ "$what" = kf ]; then
  mkdir -p "$OUT/kf"
  python3 test/gpu/Inputs/write-fp8-group-sizes.py "$OUT/kf/mm-in"
  python3 test/gpu/Inputs/write-fp8-wgrad-sizes.py "$OUT/kf/wg-in"
  for input in fp8-grouped-matmul:mm fp8-wgrad:wg; do
    src=test/gpu/Inputs/${input%%:*}.mlir; name=${input##*:}
    "$BIN/moe-compile" --quiet "$src" --target=sm_90a -o "$OUT/kf/$name-gpu"
    "$BIN/moe-compile" --quiet "$src" --target=sm_90a --gemm=generated -o "$OUT/kf/$name-generated"
    "$BIN/moe-compile" --quiet "$src" --target=cpu -o "$OUT/kf/$name-cpu"
  done
fi
