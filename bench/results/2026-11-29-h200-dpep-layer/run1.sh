#!/usr/bin/env bash
# Device call 1 (one H200): the expert-parallel checks after the data x
# expert parallelism change (b85cc44), and a profile of qwen3-30b-a3b.
#   1. scripts/gpu-ep.sh: NCCL at P = 1 (collectives test, moe-runner
#      --ranks 1 over NCCL: joinCollectives now makes one communicator per
#      axis group);
#   2. scripts/gpu-ep-host.sh run: small (P = 2, 4, [2, 2]), reduced qwen3
#      (P = 2) and dsv3 (P = 4, [2, 2]) host-staged on one GPU vs the CPU;
#   3. moe-runner --profile of qwen3-30b-a3b forward and backward (gemm=auto).
# Artifacts compiled on the MLIR machine: .art/eph (scripts/gpu-ep-host.sh
# artifacts), .art/lay/gpu (moe-generate-vjp recompute=none, --gemm=auto).
set -u
cd "$(dirname "$0")/../../.."
export BUILD_GPU=/tmp/rb
echo "=== gpu-ep.sh $(date +%T)"
scripts/gpu-ep.sh "$OUT/ep" > "$OUT/gpu-ep.log" 2>&1; echo "gpu-ep rc=$?"
grep -E "PASS|FAIL|checks|skip" "$OUT/gpu-ep.log" | head -30
echo "=== gpu-ep-host.sh $(date +%T)"
scripts/gpu-ep-host.sh run .art/eph "$OUT/eph" > "$OUT/gpu-ep-host.log" 2>&1; echo "gpu-ep-host rc=$?"
grep -E "PASS|FAIL|check:" "$OUT/gpu-ep-host.log" | head -40
echo "=== profile qwen3 $(date +%T)"
RUNNER=/tmp/rb/bin/moe-runner
[ -x $RUNNER ] || RUNNER=$(find /tmp/rb -name moe-runner -type f -perm -u+x | head -1)
export MOE_RUNTIME_GPU_LIB=$(find /tmp/rb -name 'libmoe_runtime_gpu.so' | head -1)
timeout 120 $RUNNER .art/lay/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --iters 10 --warmup 2 --profile > "$OUT/profile-qwen3.txt" 2>&1; echo "profile rc=$?"
grep -E "^entry" "$OUT/profile-qwen3.txt"
rm -rf "$OUT/ep/build.log" "$OUT/eph/build.log"
echo "=== end $(date +%T)"
