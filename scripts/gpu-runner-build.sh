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
