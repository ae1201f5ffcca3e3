#!/usr/bin/env bash
# Device call 4 (one H200): dsv3-1gpu's racecheck again with
# CUDA_LAUNCH_BLOCKING=1 (run3 got past the forward that way and failed at
# a launch of the backward), with the runtime now naming the launch that
# failed (mgpuLaunchKernel: kernel, grid, block, dynamic shared memory).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== start $(date +%T)"
CUDA_LAUNCH_BLOCKING=1 timeout --kill-after=15 200 /usr/local/cuda/bin/compute-sanitizer \
  --tool racecheck --print-limit 20 "$RUNNER" .art/s2/check/gpu/dsv3-1gpu --entry moe_layer_bwd \
  --device gpu --iters 1 --warmup 0 > "$OUT/dsv3-racecheck-run4.log" 2>&1
echo "rc=$? $(date +%T)"
grep -v "mgpuMemFree\|launch skipped\|mgpuEventDestroy\|mgpuMemAlloc\|mgpuModuleGetFunction\|cuTensorMapEncodeTiled" \
  "$OUT/dsv3-racecheck-run4.log" | head -30
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
