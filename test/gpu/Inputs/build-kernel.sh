#!/bin/sh
# Builds a shared object from an MLIR file with gpu.launch, for sm_90 (H100,
# H200), the way STYLE.md section 4.6 describes:
#   mlir-opt --gpu-lower-to-nvvm-pipeline (cubin embedded, mgpu* host calls)
#   -> mlir-translate --mlir-to-llvmir -> clang -c -fPIC -> ld.lld -shared.
# Its only undefined symbols besides libc are mgpu*, which libmoe_runtime_gpu
# provides (runtime/gpu/lib/CudaDriver.cpp).
#
# usage: build-kernel.sh IN.mlir OUT.so [CHIP]
# Tools: MLIR_BIN (default /usr/lib/llvm-22/bin: mlir-opt, mlir-translate,
# clang or clang-22, ld.lld); ptxas from CUDA_ROOT/CUDA_HOME or
# /usr/local/cuda/bin (gpu-module-to-binary looks there).
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 IN.mlir OUT.so [CHIP (default sm_90)]" >&2
  exit 2
fi
in=$1
out=$2
chip=${3:-sm_90}
bin=${MLIR_BIN:-/usr/lib/llvm-22/bin}
: "${CUDA_ROOT:=${CUDA_HOME:-/usr/local/cuda}}"
export CUDA_ROOT
export PATH="$bin:$CUDA_ROOT/bin:$PATH"
cc=clang
[ -x "$bin/clang" ] || cc=clang-22

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mlir-opt "$in" \
  --gpu-lower-to-nvvm-pipeline="cubin-chip=$chip cubin-features=+ptx80 opt-level=3 cubin-format=bin" \
  -o "$tmp/lowered.mlir"
mlir-translate --mlir-to-llvmir "$tmp/lowered.mlir" -o "$tmp/host.ll"
"$cc" -c -fPIC -O2 -Wno-override-module "$tmp/host.ll" -o "$tmp/host.o"
ld.lld -shared "$tmp/host.o" -o "$out"

# Only mgpu* may be undefined (the object calls nothing else).
bad=$(llvm-nm -D --undefined-only "$out" | awk '{print $NF}' | grep -v '^mgpu' || true)
if [ -n "$bad" ]; then
  echo "$0: unexpected undefined symbols in $out:" $bad >&2
  exit 1
fi
