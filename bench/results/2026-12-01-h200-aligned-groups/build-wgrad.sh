#!/usr/bin/env bash
# The FP8 blockwise weight-gradient entries of qwen3-30b-a3b and dsv3-1gpu
# (bench/generated_gemm.py entries --fp8 blockwise), compiled on the MLIR
# machine for this directory's device calls:
#   build-wgrad.sh BIN OUT      (BIN: a compiler build's bin directory)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BIN=$1 OUT=$2
mkdir -p "$OUT"
python3 "$ROOT/bench/generated_gemm.py" entries --fp8 blockwise "$OUT/all.mlir"
python3 - "$OUT/all.mlir" "$OUT/wgrad.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
keep = [m.group(1) for m in re.finditer(r"(func\.func @(\w+)\(.*?\n}\n)", text, re.S)
        if "wgrad" in m.group(2) and ("qwen3" in m.group(2) or "dsv3" in m.group(2))]
open(sys.argv[2], "w").write("".join(keep))
print(len(keep), "entries")
PY
"$BIN/moe-compile" --quiet "$OUT/wgrad.mlir" --target=sm_90a --gemm=generated -o "$OUT/wgrad"
