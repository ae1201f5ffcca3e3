#!/usr/bin/env bash
# build.sh after the skew test (heaviest first only where the largest group
# has more than twice the mean rows), into OUT (default .art/hf2), and the
# GEMM entries of every pass at seed-test and mixtral-8x7b:
#   OUT/art        scripts/gpu-artifacts.sh with the defaults (weight
#                  gradients heaviest group first): every example's full and
#                  check layers, the GEMM cases, FP8, NaN, adversarial
#   OUT/gg         bench/generated_gemm.py's weight-gradient entries (and
#                  every pass of seed-test and mixtral-8x7b),
#                  --gemm=generated (heaviest first), the same with
#                  --gemm-heaviest-groups-first=false (group order, as
#                  before), and --gemm=cublaslt
#   OUT/qwen3-in-order  qwen3-30b-a3b's full layer with
#                  --gemm-heaviest-groups-first=false
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/hf2}
BIN=${BIN:-build/bin}
mkdir -p "$OUT/gg"
python3 bench/generated_gemm.py entries "$OUT/gg/all.mlir"
python3 - "$OUT/gg/all.mlir" "$OUT/gg/entries.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
funcs = re.findall(r'(func\.func @(\w+)\(.*?\n\}\n)', text, re.S)
keep = [f for f, name in funcs if "wgrad" in name or "seed_test" in name or "mixtral" in name]
open(sys.argv[2], "w").write("\n".join(keep))
PY
"$BIN/moe-compile" --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=generated -o "$OUT/gg/generated"
"$BIN/moe-compile" --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=generated \
  --gemm-heaviest-groups-first=false -o "$OUT/gg/in-order"
"$BIN/moe-compile" --quiet "$OUT/gg/entries.mlir" --target=sm_90a --gemm=cublaslt -o "$OUT/gg/cublaslt"
scripts/gpu-artifacts.sh "$(dirname "$BIN")" "$OUT/art"
"$BIN/moe-compile" --quiet "$OUT/art/src/qwen3-30b-a3b.mlir" --target=sm_90a \
  --gemm-heaviest-groups-first=false -o "$OUT/qwen3-in-order"
echo "built $OUT"
