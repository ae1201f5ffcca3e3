#!/usr/bin/env bash
# Registers and spills of the generated grouped GEMM kernels, from ptxas -v
# (no GPU needed):
#
#   scripts/gemm-registers.sh INPUT.mlir [BLOCK_N [BUILD_DIR [OPTIONS]]]
#
# lowers INPUT (functions on tensors, e.g. test/gpu/Inputs/
# generated-grouped-gemm.mlir or an example after moe-generate-vjp) with
# moe-lower-to-gpu{gemm=generated gemm-block-n=BLOCK_N OPTIONS} (default
# auto; OPTIONS more of the pipeline's options, e.g. gemm-tma-store=false as
# sanitizer builds use) to PTX, and prints for each grouped GEMM kernel its
# wgmma shape, its threads (.maxntid), ptxas's "Used N registers" / spill lines for sm_90a, and
# whether ptxas kept its setmaxnreg (ptxas drops it, "C7508 ... unable to
# determine register count at entry", where the threads alone do not fix
# the count at entry: harmless with 256 threads, which may hold 255
# registers each; with 384 the consumers would be left 168 registers).
# Then whether ptxas kept the wgmmas pipelined: "wgmma serialized" where it
# reports C7514-C7529 (it waits for a wgmma, e.g. because an instruction
# moved an accumulator still in flight), else "wgmma pipelined".
# Exits 1 if any kernel spills, a kernel of 384 or more threads loses its
# setmaxnreg, or ptxas serializes a kernel's wgmmas.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INPUT=$1
BLOCK_N=${2:-auto}
BUILD=${3:-$ROOT/build}
OPTIONS=${4:-}
CUDA=${CUDA_HOME:-/usr/local/cuda}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$BUILD/bin/moe-opt" "$INPUT" \
  --pass-pipeline="builtin.module(moe-lower-to-gpu{gemm=generated gemm-block-n=$BLOCK_N $OPTIONS toolkit=$CUDA})" \
  --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2>"$WORK/nvvm.mlir"
"$BUILD/bin/moe-opt" "$WORK/nvvm.mlir" --gpu-module-to-binary="format=isa toolkit=$CUDA" \
  -o "$WORK/isa.mlir"
python3 - "$WORK" <<'PY'
import os, re, sys
work = sys.argv[1]
text = open(os.path.join(work, "isa.mlir")).read()
for name, asm in re.findall(r'gpu\.binary @(\w*grouped_(?:matmul|weight_grad)\w*) +\[.*?assembly = "((?:[^"\\]|\\.)*)"', text):
    ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda m: chr(int(m.group(1), 16)), asm).replace('\\\\', '\\')
    open(os.path.join(work, name + ".ptx"), "w").write(ptx)
PY
status=0
for ptx in "$WORK"/*.ptx; do
  [ -e "$ptx" ] || { echo "no grouped GEMM kernel in $INPUT"; exit 1; }
  name=$(basename "$ptx" .ptx)
  shape=$(grep -oE 'wgmma.mma_async.sync.aligned.m64n[0-9]+k[0-9]+' "$ptx" | sort -u | sed 's/.*\.//' | tr '\n' ' ')
  threads=$(grep -oE '^\.maxntid [0-9]+' "$ptx" | awk '{print $2}')
  log=$("$CUDA/bin/ptxas" -v --warn-on-spills -arch=sm_90a "$ptx" -o /dev/null 2>&1)
  info=$(echo "$log" | grep -E 'registers|spill' | grep -v C7508 | sed 's/^ptxas info *: *//' | tr '\n' ' ')
  setmaxnreg="setmaxnreg kept"
  if echo "$log" | grep -q "C7508"; then setmaxnreg="setmaxnreg ignored"; fi
  wgmma="wgmma pipelined"
  serialized=$(echo "$log" | { grep -oE 'C75(1[4-9]|2[0-9])' || true; } | sort -u | tr '\n' ' ')
  [ -z "$serialized" ] || wgmma="wgmma serialized (${serialized% })"
  echo "$name  $shape ${threads:-?} threads  $info $setmaxnreg  $wgmma"
  if echo "$info" | grep -Eq '[1-9][0-9]* bytes spill (stores|loads)'; then status=1; fi
  if [ "$setmaxnreg" = "setmaxnreg ignored" ] && { [ -z "$threads" ] || [ "$threads" -ge 384 ]; }; then status=1; fi
  if [ -n "$serialized" ]; then status=1; fi
done
exit $status
