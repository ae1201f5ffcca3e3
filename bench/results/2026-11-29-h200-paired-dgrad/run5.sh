#!/usr/bin/env bash
# Device call 5 (one H200): combine_grad's dweights as a warp per pair
# (.art/ga3: scripts/gpu-artifacts.sh with the change), and 256-column tiles
# for qwen3-30b-a3b's N = 2048 grouped matmuls (.art/gb256:
# EXAMPLES=qwen3-30b-a3b MOE_GEMM_BLOCK_N=256):
#   1. gpu-e2e on .art/ga3: small, seed-test, mixtral-8x7b, qwen3-30b-a3b
#      check layers forward and backward, the NaN layer, the GEMM cases;
#   2. the adversarial layers on .art/ga3;
#   3. moe-runner --profile of qwen3-30b-a3b: .art/ga3 and .art/gb256;
#   4. bench/layer.sh on qwen3-30b-a3b with .art/ga3 (no replays) against
#      the PyTorch formulations, same run.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small seed-test mixtral-8x7b qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga3 \
  timeout 120 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS" "$OUT/e2e.log" | head -30
echo "=== adversarial $(date +%T)"
A=.art/ga3/adversarial
adv() { # NAME EXPECT...
  local e=$1; shift
  local flags=()
  for x in "$@"; do flags+=(--expect-nonfinite "$x"); done
  timeout 60 $RUNNER $A/gpu --device gpu --inputs $A/in --seed 1 --iters 1 --warmup 0 \
    --entry $e --entry ${e}_fwd --entry ${e}_bwd --check-against $A/cpu "${flags[@]}" \
    >> "$OUT/adversarial.log" 2>&1
  echo "adversarial $e rc=$? $(grep -E '^check:' "$OUT/adversarial.log" | tail -1)"
}
for e in same_k one_expert groups_e256; do adv $e; done
adv nonfinite_x out aux_loss res0 res1 res3 res5 res6 res7 res9 d_x d_router_weight \
  d_w_gate d_w_up d_w_down
adv logits_softmax out aux_loss z_loss res0 res4 d_x d_logits d_w_gate d_w_up d_w_down
adv logits_sigmoid aux_loss z_loss res0 d_logits
adv gemm_overflow out res2 res5 d_x d_logits d_w_gate d_w_up d_w_down
echo "FAIL lines: $(grep -c FAIL "$OUT/adversarial.log")"
echo "=== profiles $(date +%T)"
for v in ga3 gb256; do
  timeout 60 $RUNNER .art/$v/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd \
    --entry moe_layer_bwd --iters 20 --warmup 3 --profile > "$OUT/profile-$v.txt" 2>&1
  echo "profile $v rc=$?"
  grep -E "^entry|combine_grad|grouped" "$OUT/profile-$v.txt"
done
echo "=== layer $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/ga3/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=200 \
  timeout 200 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table.txt" 2>/dev/null
gzip "$OUT/adversarial.log"
rm -rf "$OUT/build.log" "$OUT/layer" "$OUT/e2e"
echo "=== end $(date +%T)"
