#!/usr/bin/env bash
# Artifacts of this directory's device calls, compiled on the MLIR machine.
#   build.sh BASE_BIN VARIANT_BIN OUT
# BASE_BIN / VARIANT_BIN: bin directories of two compiler builds.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BASE=$1 VARIANT=$2 OUT=$3
mkdir -p "$OUT"
python3 "$ROOT/bench/generated_gemm.py" entries --fp8 blockwise "$OUT/all.mlir"
# Only the weight gradients of qwen3-30b-a3b and mixtral-8x7b.
python3 - "$OUT/all.mlir" "$OUT/wgrad.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
funcs = re.findall(r"func\.func @(\w+)\(.*?\n}\n", text, re.S)
keep = []
for m in re.finditer(r"(func\.func @(\w+)\(.*?\n}\n)", text, re.S):
    name = m.group(2)
    if "wgrad" in name and ("qwen3" in name or "mixtral" in name):
        keep.append(m.group(1))
open(sys.argv[2], "w").write("".join(keep))
print(len(keep), "entries")
PY
for v in base:$BASE variant:$VARIANT; do
  name=${v%%:*} bin=${v#*:}
  "$bin/moe-compile" --quiet "$OUT/wgrad.mlir" --target=sm_90a --gemm=generated -o "$OUT/$name"
done
# Correctness of the variant: test/gpu/fp8-weight-grad.test's cases.
python3 "$ROOT/test/gpu/Inputs/write-fp8-group-sizes.py" "$OUT/kw-in"
KW=$ROOT/test/gpu/Inputs/fp8-weight-grad.mlir
"$VARIANT/moe-compile" --quiet --target=cpu "$KW" -o "$OUT/kw-cpu"
"$VARIANT/moe-compile" --quiet --target=sm_90a --gemm=generated "$KW" -o "$OUT/kw-gpu"
"$VARIANT/moe-compile" --quiet --target=sm_90a --gemm=generated --gemm-max-stages=2 "$KW" -o "$OUT/kw-gpu-s2"
echo done
