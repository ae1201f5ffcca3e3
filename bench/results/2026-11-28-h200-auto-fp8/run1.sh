#!/usr/bin/env bash
# Device call 1 (one H200): cvt FP8 quantize bit-identity + bandwidth; layer
# timings bf16 (auto = cuBLASLt bf16 GEMMs), bf16 generated, FP8 blockwise with
# and without fp8-weight-residuals, at the four shapes; qwen3 FP8 profile;
# FP8 blockwise check layers (seed-test, qwen3) against the CPU.
set -u
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader
export BUILD_GPU=/tmp/rb
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda $OUT/build.log
export RUNNER
A=.art
echo "=== quantize bit-identity $(date +%T)"
scripts/gpu-fp8-quantize.sh run $A/q > $OUT/quantize.log 2>&1; echo "quantize rc=$?"
grep -E "IDENTICAL|DIFFER|identical|differ|GB/s|cases" $OUT/quantize.log | tail -30
echo "=== layer timings $(date +%T)"
for ex in qwen3-30b-a3b seed-test mixtral-8x7b dsv3-1gpu; do
  for kind in bf:$A/bf/gpu bg:$A/bg fbw:$A/fbw/gpu fbwn:$A/fbwn; do
    k=${kind%%:*}; d=${kind#*:}
    timeout 150 $RUNNER $d/$ex --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
      --iters 10 --warmup 2 2>&1 | grep -E "^entry|error" | sed "s/^/$k $ex /" | tee -a $OUT/layers.log
  done
done
echo "=== profile $(date +%T)"
timeout 100 $RUNNER $A/fbw/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --iters 3 --warmup 1 --profile > $OUT/profile-qwen3-fp8.log 2>&1
timeout 100 $RUNNER $A/fbw/gpu/dsv3-1gpu --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --iters 3 --warmup 1 --profile > $OUT/profile-dsv3-fp8.log 2>&1
echo "=== FP8 check layers $(date +%T)"
E2E_TIMEOUT_S=200 MOE_ARTIFACTS_ROOT=$A/fbw E2E_EXAMPLES="seed-test qwen3-30b-a3b" \
  scripts/gpu-e2e.sh $OUT/e2e 2>&1 | grep -E "FAIL|rc=|check:|done|near" | head -20
echo "=== end $(date +%T)"
