#!/usr/bin/env bash
# Builds the artifacts of run3 into OUT (default .art/hf3):
#   OUT/bn/{auto,bn128}  seed-test's and mixtral-8x7b's forward and dgrad
#                   GEMM entries (bench/generated_gemm.py), --gemm=generated
#                   with the default tile width (256 where N >= 4096) and
#                   with --gemm-block-n=128 (pingpong 128 x 128 tiles)
#   OUT/san3/{c132,c8}  test/gpu's generated GEMM cases for memcheck and
#                   initcheck (--gemm-max-stages=3 --gemm-tma-store=false,
#                   as scripts/gpu-sanitize.sh's builds), on 132 and 8 CTAs
#   OUT/san2/{c132,c8}  the same at 2 stages, for racecheck
#   OUT/gemm-in     their group sizes (write-group-sizes.py)
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/hf3}
BIN=${BIN:-build/bin}
mkdir -p "$OUT/bn" "$OUT/san3" "$OUT/san2"
python3 - .art/hf2/gg/all.mlir "$OUT/bn/entries.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
funcs = re.findall(r'(func\.func @(\w+)\(.*?\n\}\n)', text, re.S)
keep = [f for f, name in funcs if ("seed_test" in name or "mixtral" in name) and "wgrad" not in name]
open(sys.argv[2], "w").write("\n".join(keep))
PY
"$BIN/moe-compile" --quiet "$OUT/bn/entries.mlir" --target=sm_90a --gemm=generated -o "$OUT/bn/auto"
"$BIN/moe-compile" --quiet "$OUT/bn/entries.mlir" --target=sm_90a --gemm=generated --gemm-block-n=128 -o "$OUT/bn/bn128"
"$BIN/moe-compile" --quiet "$OUT/bn/entries.mlir" --target=sm_90a --gemm=cublaslt -o "$OUT/bn/cublaslt"
G=test/gpu/Inputs/generated-grouped-gemm.mlir
python3 test/gpu/Inputs/write-group-sizes.py "$OUT/gemm-in"
"$BIN/moe-compile" --quiet --target=cpu $G -o "$OUT/gemm-cpu"
for s in 3 2; do
  for c in 132 8; do
    "$BIN/moe-compile" --quiet --target=sm_90a --gemm=generated --gemm-max-stages=$s \
      --gemm-tma-store=false --gemm-ctas=$c $G -o "$OUT/san$s/c$c"
  done
done
echo "built $OUT"
