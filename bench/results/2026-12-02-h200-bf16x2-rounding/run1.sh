#!/usr/bin/env bash
# Device call 1 (one H200): bf16 rounding as cvt.rn.bf16x2.f32 + min.s16x2
# (gpu-native-bf16-truncation's NaN made canonical by a signed min, pairs
# kept together; the pingpong GEMMs round natively too) checked, and the
# kernels changed since 9be0305 under compute-sanitizer. Artifacts compiled
# on the MLIR machine from this session's tree:
#   .art/qz   scripts/gpu-fp8-quantize.sh compile (round_f32_to_bf16 by
#             pairs and round_f32_to_bf16_transposed one value at a time,
#             on raw f32 bit patterns with NaNs of both signs and payloads),
#             without its inputs, which (a) writes
#   .art/g    CHECK_ONLY=1 EXAMPLES=none scripts/gpu-artifacts.sh: the
#             grouped GEMM cases, FP8 weight-gradient cases, NaN and
#             adversarial layers, the fused-adjoint (pingpong) layer
#   .art/f    CHECK_ONLY=1 EXAMPLES="seed-test qwen3-30b-a3b"
#             MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#   .art/s    the sanitizer build of .art/g (MOE_GEMM=generated
#             MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false)
#   .art/r    the racecheck build (MOE_GEMM=generated MOE_GEMM_MAX_STAGES=2
#             MOE_GEMM_RACECHECK_LAYOUT=true MOE_GEMM_TMA_STORE=false)
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((580 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) quantize and rounding cases, GPU vs CPU byte for byte $(date +%T)"
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/qz/in
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/qz > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|cases|differ" "$OUT/quantize.log" | head -24
echo "=== (b) grouped GEMM cases, FP8 weight gradients, NaN, adversarial $(date +%T), $(left) s left"
MOE_ARTIFACTS_ROOT=.art/g BUILD_GPU=/tmp/rb E2E_EXAMPLES="fused-adjoint-layer" E2E_TIMEOUT_S=120 \
  timeout 220 scripts/gpu-e2e.sh /tmp/e2e > "$OUT/e2e.log" 2>&1
echo "rc=$?"; grep -E "PASS|FAIL|rc=|ALL|SOME" "$OUT/e2e.log" | head -30
echo "=== (c) FP8 check layers vs CPU $(date +%T), $(left) s left"
for s in seed-test qwen3-30b-a3b; do
  Q=.art/f/check/gpu/$s
  timeout 90 "$RUNNER" $Q --device gpu --check-against .art/f/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-fp8-$s.log" 2>&1
  echo "$s rc=$?"; grep -E "FAIL|near-ties| d_x | d_w_|  out " "$OUT/check-fp8-$s.log" | grep -v "^  [a-z_0-9]* *(output|gradient|residual)" | head -8
done
echo "=== (d) compute-sanitizer on the generated GEMMs $(date +%T), $(left) s left"
if [ "$(left)" -gt 60 ]; then
  MOE_ARTIFACTS_ROOT=.art/s SANITIZE_SHARED_ROOT=.art/r BUILD_GPU=/tmp/rb \
    SANITIZE_ARTIFACTS="gemm fp8wgrad fused-adjoint-layer" SANITIZE_TOOLS="memcheck racecheck" \
    SANITIZE_SHARED_ARTIFACTS="gemm fp8wgrad" SANITIZE_TIMEOUT_S=120 \
    timeout $(( $(left) - 10 )) scripts/gpu-sanitize.sh /tmp/san > "$OUT/sanitize.log" 2>&1
  echo "rc=$?"; tail -15 "$OUT/sanitize.log"
fi
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
