#!/usr/bin/env bash
# FP8 wgrad with transposed block scales: correctness, GEMM and layer timing.
set -u
cd "$(dirname "$0")/.."
export BUILD_GPU=/tmp/rb
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda /tmp/rb.log
W=.art/w1
for v in gpu threads; do
  timeout 120 $RUNNER $W/$v --device gpu --inputs $W/in --iters 1 --warmup 0 --check-against $W/cpu > $OUT/wgrad-$v.log 2>&1; echo "$v rc=$?"
  grep -E 'check:|error' $OUT/wgrad-$v.log | head -3; grep -E 'rel_l2' $OUT/wgrad-$v.log | awk '{print $4}' | tr '\n' ' '; echo
done
E2E_TIMEOUT_S=150 MOE_ARTIFACTS_ROOT=$W/fbw E2E_EXAMPLES="seed-test qwen3-30b-a3b" \
  scripts/gpu-e2e.sh $OUT/e2e-bw 2>&1 | grep -E "FAIL|rc=|check:|done" | head -10
for ex in qwen3-30b-a3b seed-test; do
  for kind in bf fbw; do
  timeout 100 $RUNNER $W/$kind/gpu/$ex --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
      --iters 10 --warmup 2 2>&1 | grep -E "^entry" | sed "s/^/$kind $ex /"
  done
done
timeout 100 $RUNNER $W/fbw/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --iters 3 --warmup 1 --profile > $OUT/profile-qwen3-fp8-bwd.log 2>&1
timeout 100 $RUNNER $W/fbw/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --iters 3 --warmup 1 --profile > $OUT/profile-qwen3-fp8-fwd.log 2>&1
grep -E "grouped_weight_grad" $OUT/profile-qwen3-fp8-bwd.log
timeout 200 python3 bench/generated_gemm.py run --runner $RUNNER --generated $W/gg/bf16 \
  --fp8-blockwise $W/gg/bw --out $OUT/gg --iters 10 --warmup 2 --passes wgrad \
  --shapes qwen3-30b-a3b,seed-test > $OUT/gg.log 2>&1; echo "gg rc=$?"
sed -n '/gemm (FP8)/,$p' $OUT/gg.log
echo "=== end $(date +%T)"
