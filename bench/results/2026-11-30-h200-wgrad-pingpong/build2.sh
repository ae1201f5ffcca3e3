#!/usr/bin/env bash
# Builds the artifacts of run2 into OUT (default .art/pk2). run1 showed that
# gemm-block-n=auto gives the weight gradients of qwen3-30b-a3b and
# dsv3-1gpu 128 x 256 tiles (cooperative), which pingpong does not take;
# here the same weight-gradient entries with 128 x 128 tiles:
#   OUT/gg/bn128        --gemm-block-n=128 (pingpong)
#   OUT/gg/bn128-coop   --gemm-block-n=128 --gemm-pingpong=false
#   OUT/qwen3-bn128     qwen3-30b-a3b's full layer (build.sh's source) with
#                       --gemm-block-n=128 (only its weight gradients change:
#                       auto already gives its grouped matmuls 128 columns)
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/pk2}
BIN=${BIN:-build/bin}
mkdir -p "$OUT/gg"
python3 - .art/pk/gg/entries.mlir "$OUT/gg/wgrad.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
funcs = re.findall(r'(func\.func @(\w+)\(.*?\n\}\n)', text, re.S)
keep = [f for f, name in funcs if "wgrad" in name]
open(sys.argv[2], "w").write("\n".join(keep))
PY
"$BIN/moe-compile" --quiet "$OUT/gg/wgrad.mlir" --target=sm_90a --gemm=generated --gemm-block-n=128 -o "$OUT/gg/bn128"
"$BIN/moe-compile" --quiet "$OUT/gg/wgrad.mlir" --target=sm_90a --gemm=generated --gemm-block-n=128 \
  --gemm-pingpong=false -o "$OUT/gg/bn128-coop"
"$BIN/moe-compile" --quiet .art/pk/art/src/qwen3-30b-a3b.mlir --target=sm_90a --gemm-block-n=128 \
  -o "$OUT/qwen3-bn128"
echo "built $OUT"
