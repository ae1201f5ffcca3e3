#!/usr/bin/env bash
# Artifacts of this directory's device calls, compiled on the MLIR machine
# by BUILD_DIR's compiler (default build/):
#   OUT/kw/{cpu,gpu,gpu-s2,gpu-c8,gpu-unpaired,gpu-san,gpu-race}
#       test/gpu/Inputs/fp8-weight-grad.mlir (the generated FP8 weight
#       gradients' cases; inputs OUT/kw/in): the CPU reference; paired
#       promotion (the default) with as many stages as fit, with 2 stages,
#       on 8 CTAs; one k-step at a time (--gemm-paired-promotion=false);
#       the sanitizer builds (3 stages, thread stores; 2 stages, racecheck
#       layout)
#   OUT/wg/{paired,unpaired}
#       bench/generated_gemm.py's blockwise FP8 weight gradients of
#       qwen3-30b-a3b and mixtral-8x7b alone, with and without paired
#       promotion
#   OUT/b, OUT/f, OUT/fu
#       scripts/gpu-artifacts.sh, qwen3-30b-a3b (full size and check size):
#       bf16; FP8 blockwise with FP8 weight inputs; the same FP8 layer
#       with MOE_GEMM_PAIRED_PROMOTION=false. OUT/f has seed-test too.
#
#   build.sh OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BIN=${BUILD_DIR:-$ROOT/build}/bin
OUT=$1
mkdir -p "$OUT/kw" "$OUT/wg"
KW=$ROOT/test/gpu/Inputs/fp8-weight-grad.mlir
python3 "$ROOT/test/gpu/Inputs/write-fp8-group-sizes.py" "$OUT/kw/in"
G="--target=sm_90a --gemm=generated"
"$BIN/moe-compile" --quiet --target=cpu "$KW" -o "$OUT/kw/cpu"
"$BIN/moe-compile" --quiet $G "$KW" -o "$OUT/kw/gpu"
"$BIN/moe-compile" --quiet $G --gemm-max-stages=2 "$KW" -o "$OUT/kw/gpu-s2"
"$BIN/moe-compile" --quiet $G --gemm-ctas=8 "$KW" -o "$OUT/kw/gpu-c8"
"$BIN/moe-compile" --quiet $G --gemm-paired-promotion=false "$KW" -o "$OUT/kw/gpu-unpaired"
"$BIN/moe-compile" --quiet $G --gemm-max-stages=3 --gemm-tma-store=false "$KW" -o "$OUT/kw/gpu-san"
"$BIN/moe-compile" --quiet $G --gemm-max-stages=2 --gemm-tma-store=false \
  --gemm-racecheck-layout=true "$KW" -o "$OUT/kw/gpu-race"
echo "== weight gradients alone"
python3 "$ROOT/bench/generated_gemm.py" entries --fp8 blockwise "$OUT/wg/all.mlir"
python3 - "$OUT/wg/all.mlir" "$OUT/wg/wgrad.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
keep = [m.group(1) for m in re.finditer(r"(func\.func @(\w+)\(.*?\n}\n)", text, re.S)
        if "wgrad" in m.group(2) and ("qwen3" in m.group(2) or "mixtral" in m.group(2))]
open(sys.argv[2], "w").write("".join(keep))
print(len(keep), "entries")
PY
"$BIN/moe-compile" --quiet "$OUT/wg/wgrad.mlir" $G -o "$OUT/wg/paired"
"$BIN/moe-compile" --quiet "$OUT/wg/wgrad.mlir" $G --gemm-paired-promotion=false -o "$OUT/wg/unpaired"
echo "== layers"
export BUILD_DIR=${BUILD_DIR:-$ROOT/build}
EXAMPLES=qwen3-30b-a3b "$ROOT/scripts/gpu-artifacts.sh" "$BUILD_DIR" "$OUT/b"
EXAMPLES="seed-test qwen3-30b-a3b" MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1 \
  "$ROOT/scripts/gpu-artifacts.sh" "$BUILD_DIR" "$OUT/f"
EXAMPLES=qwen3-30b-a3b MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1 \
  MOE_GEMM_PAIRED_PROMOTION=false "$ROOT/scripts/gpu-artifacts.sh" "$BUILD_DIR" "$OUT/fu"
echo done
