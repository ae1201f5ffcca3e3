#!/usr/bin/env bash
# Device call 3 (one H200), compiler 35f1383. Artifacts:
#   .art/sz  CHECK_ONLY=1 EXAMPLES="seed-test qwen3-30b-a3b" MOE_GEMM=generated
#            MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
#            MOE_DENSE_MATMULS=false scripts/gpu-artifacts.sh: the check
#            layers with every grouped GEMM generated (their inference
#            entries fuse gate and up: up_weight) and the router's matmuls
#            as kernels (initcheck does not see cuBLASLt's TMA stores)
# compute-sanitizer memcheck and initcheck on every entry of both layers:
# among them seed-test's z-loss kernel (f45b1dd, not sanitized before) and
# the up_weight grouped GEMMs in place; then the same layers against the
# CPU reference.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== compute-sanitizer $(date +%T)"
MOE_ARTIFACTS_ROOT=.art/sz BUILD_GPU=/tmp/rb SANITIZE_ARTIFACTS="seed-test qwen3-30b-a3b" \
  SANITIZE_TOOLS="memcheck initcheck" SANITIZE_TIMEOUT_S=200 \
  timeout 420 scripts/gpu-sanitize.sh /tmp/san > "$OUT/sanitize.log" 2>&1
echo "rc=$?"; tail -8 "$OUT/sanitize.log"
echo "=== the same layers against the CPU $(date +%T)"
for s in seed-test qwen3-30b-a3b; do
  timeout 60 "$RUNNER" .art/sz/check/gpu/$s --device gpu --check-against .art/sz/check/cpu/$s \
    $(python3 scripts/near-tie-args.py .art/sz/check/gpu/$s.json) --warmup 0 --iters 1 > "$OUT/check-$s.log" 2>&1
  echo "$s rc=$?: $(grep -E "^check:" "$OUT/check-$s.log" | tr '\n' ';')"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
