#!/usr/bin/env bash
# Device call 3 (one H200, short): the transposed 1x128 quantize schedule
# byte-identical to the CPU (quantize-large's transposed cases), the FP8
# blockwise qwen3 layer with it (timing, backward profile), and its check
# layer against the CPU reference.
set -u
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
export BUILD_GPU=/tmp/rb
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda $OUT/build.log
export RUNNER
A=.art
( E2E_TIMEOUT_S=170 MOE_ARTIFACTS_ROOT=$A/fbw2 E2E_EXAMPLES="qwen3-30b-a3b" \
    scripts/gpu-e2e.sh $OUT/e2e > $OUT/e2e.log 2>&1 ) &
sleep 12
scripts/gpu-fp8-quantize.sh run $A/q > $OUT/quantize.log 2>&1; echo "quantize rc=$?"
grep -E "large|every|FAIL|GB/s" $OUT/quantize.log
for i in 1 2; do
timeout 40 $RUNNER $A/fbw2/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --iters 10 --warmup 2 2>&1 | grep -E "^entry|error" | tee -a $OUT/layers.log
done
timeout 40 $RUNNER $A/fbw2/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --iters 3 --warmup 1 --profile > $OUT/profile-qwen3-fp8-bwd.log 2>&1
grep -E "quantize|transpose" $OUT/profile-qwen3-fp8-bwd.log | head -20
wait
grep -E "FAIL|rc=|near-ties|done|check:" $OUT/e2e.log | head -8
cp $OUT/e2e/check-qwen3-30b-a3b.log $OUT/check-qwen3.log 2>/dev/null; rm -rf $OUT/e2e $OUT/build.log
echo "=== end $(date +%T)"
