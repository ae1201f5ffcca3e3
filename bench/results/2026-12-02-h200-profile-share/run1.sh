#!/usr/bin/env bash
# Device call 1 (one H200), compiler 149af12 (the last commit whose kernels
# had not run on a GPU: 1fb2bd2's NVVM cvt intrinsics, d689cd3's paired
# rows). Artifacts compiled on the MLIR machine from this tree:
#   .art/b    scripts/gpu-artifacts.sh, bf16 defaults, every example
#   .art/qz   BENCH=1 scripts/gpu-fp8-quantize.sh compile (inputs made here)
#   .art/g    CHECK_ONLY=1 scripts/gpu-artifacts.sh (check layers, grouped
#             GEMM cases, FP8 weight gradients, NaN and adversarial layers,
#             the fused-adjoint layer)
#   .art/f    CHECK_ONLY=1 EXAMPLES="seed-test qwen3-30b-a3b"
#             MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#   .art/s    the memcheck/initcheck build of .art/g (MOE_GEMM=generated
#             MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false)
#   .art/r    the racecheck build (MAX_STAGES=2, MOE_GEMM_RACECHECK_LAYOUT)
# (1) bench/profile.sh on seed-test and mixtral-8x7b: the GEMM / non-GEMM
#     split (bench/profile_share.py); (2) quantize cases byte for byte;
# (3) gpu-e2e; (4) FP8 check layers; (5) compute-sanitizer memcheck,
#     initcheck, racecheck with the time left.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.sm --format=csv,noheader
echo "=== (1) profiles $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/b/gpu PROFILE_SHAPES="seed-test mixtral-8x7b" PROFILE_ITERS=10 \
  RUNNER_TIMEOUT_S=150 timeout 300 bench/profile.sh "$OUT/profiles" > "$OUT/profile.log" 2>&1
echo "rc=$?"; cat "$OUT/profiles/share.md" 2>/dev/null
echo "=== (2) quantize and rounding cases, GPU vs CPU byte for byte $(date +%T), $(left) s left"
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/qz/in
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/qz > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|cases|differ|GB/s|TB/s" "$OUT/quantize.log" | head -40
echo "=== (3) gpu-e2e $(date +%T), $(left) s left"
MOE_ARTIFACTS_ROOT=.art/g BUILD_GPU=/tmp/rb E2E_TIMEOUT_S=120 \
  timeout $(( $(left) - 150 )) scripts/gpu-e2e.sh /tmp/e2e > "$OUT/e2e.log" 2>&1
echo "rc=$?"; grep -E "PASS|FAIL|rc=|ALL|SOME" "$OUT/e2e.log" | tail -40
echo "=== (4) FP8 check layers vs CPU $(date +%T), $(left) s left"
for s in seed-test qwen3-30b-a3b; do
  Q=.art/f/check/gpu/$s
  timeout 90 "$RUNNER" $Q --device gpu --check-against .art/f/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-fp8-$s.log" 2>&1
  echo "$s rc=$?"; grep -E "FAIL|near-ties|passed|failed" "$OUT/check-fp8-$s.log" | head -6
done
echo "=== (5) compute-sanitizer $(date +%T), $(left) s left"
if [ "$(left)" -gt 60 ]; then
  MOE_ARTIFACTS_ROOT=.art/s SANITIZE_SHARED_ROOT=.art/r BUILD_GPU=/tmp/rb \
    SANITIZE_ARTIFACTS="gemm fp8wgrad fused-adjoint-layer" SANITIZE_TOOLS="memcheck initcheck racecheck" \
    SANITIZE_SHARED_ARTIFACTS="gemm fp8wgrad" SANITIZE_TIMEOUT_S=100 \
    timeout $(( $(left) - 5 )) scripts/gpu-sanitize.sh /tmp/san > "$OUT/sanitize.log" 2>&1
  echo "rc=$?"; tail -15 "$OUT/sanitize.log"
fi
rm -f "$OUT/build.log"; gzip -f "$OUT/e2e.log" 2>/dev/null
echo "=== end $(date +%T)"
