#!/usr/bin/env bash
# Command (a): install what is missing, build, and run the main job: compile
# the small example layer (forward, and its single backward from
# moe-generate-vjp) and run it with moe-runner -- on the GPU when there is
# one (checked against the CPU reference), else on the CPU (the reference
# lowering). Safe to run again.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

moe_install_deps
moe_build moe-opt moe-compile moe-runner
# libmoe_runtime_gpu exists where CMake found the CUDA toolkit.
if ninja -C "$MOE_BUILD" -t targets all 2>/dev/null | grep -q '^moe_runtime_gpu:'; then
  ninja -C "$MOE_BUILD" moe_runtime_gpu
fi

artifacts="$MOE_BUILD/artifacts"
mkdir -p "$artifacts"
log "moe-opt examples/small.mlir --moe-generate-vjp -o build/artifacts/small-vjp.mlir"
"$MOE_BUILD/bin/moe-opt" "$MOE_ROOT/examples/small.mlir" --moe-generate-vjp \
  -o "$artifacts/small-vjp.mlir"
log "moe-compile build/artifacts/small-vjp.mlir --target=cpu -o build/artifacts/small"
"$MOE_BUILD/bin/moe-compile" "$artifacts/small-vjp.mlir" --target=cpu -o "$artifacts/small"

# A GPU is used when nvidia-smi lists one, the GPU runtime was built and
# ptxas is there; its architecture names the target (compute capability
# 9.0 -> sm_90a, the Hopper-specific one).
gpu_lib="$MOE_BUILD/lib/libmoe_runtime_gpu.so"
cuda=${CUDA_HOME:-/usr/local/cuda}
chip=""
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q GPU &&
   [ -f "$gpu_lib" ] && [ -x "$cuda/bin/ptxas" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
  chip="sm_${cap}"
  [ "$cap" = 90 ] && chip=sm_90a
fi

if [ -n "$chip" ]; then
  log "moe-compile build/artifacts/small-vjp.mlir --target=$chip -o build/artifacts/small-gpu"
  "$MOE_BUILD/bin/moe-compile" "$artifacts/small-vjp.mlir" --target="$chip" \
    -o "$artifacts/small-gpu"
  log "moe-runner build/artifacts/small-gpu --device gpu --check-against build/artifacts/small"
  MOE_RUNTIME_GPU_LIB="$gpu_lib" "$MOE_BUILD/bin/moe-runner" "$artifacts/small-gpu" \
    --device gpu --seed 1 --iters 20 --check-against "$artifacts/small" \
    --dump "$artifacts/small-run"
else
  log "no usable GPU (nvidia-smi, the GPU runtime or ptxas missing): running on the CPU"
  log "moe-runner build/artifacts/small --seed 1 --dump build/artifacts/small-run"
  "$MOE_BUILD/bin/moe-runner" "$artifacts/small" --seed 1 --iters 20 \
    --dump "$artifacts/small-run"
fi
log "inputs and outputs written as .npy under build/artifacts/small-run/<entry>/"
