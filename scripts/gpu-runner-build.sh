# Sourced by the scripts that run artifacts on a GPU machine (gpu-e2e.sh,
# gpu-sanitize.sh): builds libmoe_runtime_gpu and moe-runner standalone
# from runtime/ (no MLIR needed; an existing build directory is reused
# incrementally).
#
#   moe_build_gpu_runner ROOT BUILD CUDA_HOME LOG
#
# Sets RUNNER and exports MOE_RUNTIME_GPU_LIB; on a failed build prints the
# log's tail and exits 1.
moe_build_gpu_runner() {
  local root=$1 build=$2 cuda=$3 log=$4
  echo "=== build runtime + moe-runner ($build) $(date +%T)"
  if ! { cmake -G Ninja -S "$root/runtime" -B "$build" -DCMAKE_BUILD_TYPE=Release \
           -DCUDAToolkit_ROOT="$cuda" -DMOE_GPU_BUILD_BENCH=OFF &&
         cmake --build "$build" --target moe-runner moe_runtime_gpu; } >"$log" 2>&1; then
    tail -30 "$log"; echo "FAIL: build"; exit 1
  fi
  RUNNER=$build/bin/moe-runner
  [ -x "$RUNNER" ] || RUNNER=$(find "$build" -name moe-runner -type f -perm -u+x | head -1)
  MOE_RUNTIME_GPU_LIB=$(find "$build" -name 'libmoe_runtime_gpu.so' | head -1)
  export MOE_RUNTIME_GPU_LIB
  echo "runner: $RUNNER  gpu lib: $MOE_RUNTIME_GPU_LIB"
}

# NCCL for the expert-parallel scripts: NCCL_ROOT when set (NCCL_ROOT=torch:
# the NCCL of PyTorch's wheel, nvidia/nccl), else PyTorch's wheel when it
# ships nccl_device.h (NCCL 2.28.9 on the H200 machines: the device exchange
# needs it; with the system's 2.28.3 NCCL registers the window without a
# device description and the device exchange reports it), else the
# toolkit's or the system's (CMake's search). Exports NCCL_ROOT when chosen.
moe_default_nccl_root() {
  local wheel
  wheel=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)
  if [ "${NCCL_ROOT:-}" = torch ]; then
    [ -n "$wheel" ] || { echo "FAIL: NCCL_ROOT=torch: no nvidia.nccl module"; exit 1; }
    export NCCL_ROOT=$wheel
  elif [ -z "${NCCL_ROOT:-}" ] && [ -n "$wheel" ] && [ -f "$wheel/include/nccl_device.h" ]; then
    export NCCL_ROOT=$wheel
  fi
  echo "NCCL_ROOT: ${NCCL_ROOT:-(the toolkit's or the system's)}"
}
