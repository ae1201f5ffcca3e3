#!/usr/bin/env bash
# Device call 2 (one H200): gemm=auto's new choice against the cuBLASLt
# default it replaces (qwen3, dsv3; same run), CUDA-graph replay of the qwen3
# entries; FP8 blockwise with and without fp8-weight-residuals at qwen3 and
# dsv3; GPU-vs-CPU checks of the FP8 check layers (weight residuals) and of
# the auto qwen3 check layer; qwen3 FP8 profile.
set -u
cd "$(dirname "$0")/.."
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export BUILD_GPU=/tmp/rb
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda $OUT/build.log
A=.art
( E2E_TIMEOUT_S=420 MOE_ARTIFACTS_ROOT=$A/fbw E2E_EXAMPLES="seed-test qwen3-30b-a3b" \
    scripts/gpu-e2e.sh $OUT/e2e-fp8 > $OUT/e2e-fp8.log 2>&1 ) &
sleep 20
( E2E_TIMEOUT_S=420 MOE_ARTIFACTS_ROOT=$A/auto E2E_EXAMPLES="qwen3-30b-a3b" \
    scripts/gpu-e2e.sh $OUT/e2e-auto > $OUT/e2e-auto.log 2>&1 ) &
sleep 25
time_layer() {  # label dir example [runner flags]
  local k=$1 d=$2 ex=$3; shift 3
  [ "$(left)" -gt 100 ] || { echo "$k $ex skipped (time)"; return; }
  timeout $(( $(left) - 60 )) $RUNNER $d/$ex --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --iters 10 --warmup 2 "$@" 2>&1 | grep -E "^entry|error" | sed "s/^/$k $ex /" | tee -a $OUT/layers.log
}
echo "=== layer timings $(date +%T)"
time_layer cublaslt $A/bf/gpu qwen3-30b-a3b
time_layer auto $A/auto/gpu qwen3-30b-a3b
time_layer auto-graph $A/auto/gpu qwen3-30b-a3b --cuda-graph
time_layer fp8bw $A/fbw/gpu qwen3-30b-a3b
time_layer fp8bw-noweightres $A/fbwn qwen3-30b-a3b
timeout 60 $RUNNER $A/fbw/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --iters 3 --warmup 1 --profile > $OUT/profile-qwen3-fp8-bwd.log 2>&1
time_layer cublaslt $A/bf/gpu dsv3-1gpu
time_layer auto $A/auto/gpu dsv3-1gpu
time_layer fp8bw $A/fbw/gpu dsv3-1gpu
echo "=== compute-sanitizer on the cvt quantize kernels $(date +%T)"
for tool in memcheck initcheck; do
  [ "$(left)" -gt 60 ] || break
  timeout 50 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 86 $RUNNER $A/q/gpu/quantize-large \
    --device gpu --inputs $A/q/in --iters 1 --warmup 0 > $OUT/sanitize-$tool.log 2>&1
  echo "quantize-large $tool rc=$? $(grep -E 'ERROR SUMMARY' $OUT/sanitize-$tool.log)"
done
echo "=== waiting for the checks $(date +%T)"
wait
for f in e2e-fp8 e2e-auto; do echo "--- $f"; grep -E "FAIL|rc=|PASS \(|near-ties|done|check:" $OUT/$f.log | head -12; done
cd $OUT && tar czf logs.tgz e2e-fp8 e2e-auto build.log && rm -rf e2e-fp8 e2e-auto build.log
echo "=== end $(date +%T)"
