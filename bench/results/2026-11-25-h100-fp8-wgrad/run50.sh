#!/usr/bin/env bash
# FP8 weight gradients (generated kernel) + tiled transposes: correctness,
# GEMM timing, layer check and timing.
set -u
cd "$(dirname "$0")/.."
export BUILD_GPU=/tmp/rb
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda /tmp/rb.log
nvidia-smi -L
W=.art/w1
echo "=== fp8 weight grad vs CPU $(date +%T)"
for v in gpu threads; do
  timeout 120 $RUNNER $W/$v --device gpu --inputs $W/in --iters 1 --warmup 0 --check-against $W/cpu > $OUT/wgrad-$v.log 2>&1; echo "$v rc=$?"
  grep -E 'rel_l2|check:|error' $OUT/wgrad-$v.log | head -10
done
echo "=== transposes $(date +%T)"
RUNNER=$RUNNER timeout 150 scripts/gpu-transpose.sh run $W/tr > $OUT/transpose.log 2>&1; echo "transpose rc=$?"
grep -E "identical|differ|FAIL|GB/s|median|transpose " $OUT/transpose.log | head -40
echo "=== FP8 blockwise layers, check size $(date +%T)"
E2E_TIMEOUT_S=150 MOE_ARTIFACTS_ROOT=$W/fbw E2E_EXAMPLES="seed-test qwen3-30b-a3b" \
  scripts/gpu-e2e.sh $OUT/e2e-bw 2>&1 | grep -E "FAIL|rc=|near-ties|check:|done" | head -30
grep -hE "^\s+(out|d_x|d_w_gate|d_w_up|d_w_down|d_router_weight|aux_loss) " $OUT/e2e-bw/check-*.log | head -30
echo "=== full-size timings $(date +%T)"
for ex in qwen3-30b-a3b seed-test; do
  for kind in bf fbw; do
    timeout 100 $RUNNER $W/$kind/gpu/$ex --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
      --iters 10 --warmup 2 2>&1 | grep -E "^entry" | sed "s/^/$kind $ex /"
  done
done
for e in fwd bwd; do
timeout 100 $RUNNER $W/fbw/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_$e \
  --iters 3 --warmup 1 --profile > $OUT/profile-qwen3-fp8-$e.log 2>&1
done
echo "=== GEMM bench $(date +%T)"
timeout 280 python3 bench/generated_gemm.py run --runner $RUNNER --generated $W/gg/bf16 \
  --fp8-blockwise $W/gg/bw --fp8-tensorwise $W/gg/tw --out $OUT/gg --iters 10 --warmup 2 --passes wgrad \
  --shapes qwen3-30b-a3b,seed-test,mixtral-8x7b > $OUT/gg.log 2>&1; echo "gg rc=$?"
grep -E "device:|gemm|_qwen3|_seed|_mixtral" $OUT/gg.log | head -80
echo "=== end $(date +%T)"
