#!/usr/bin/env bash
# Device call 1 (one H200): the generated grouped GEMM computing a pair of
# products in one kernel (a1·b1 + a2·b2, the gated FFN's input gradient),
# checked and profiled; main's GPU checks after the runner refactors.
#   1. scripts/gpu-e2e.sh on .art/ga1 (scripts/gpu-artifacts.sh with the
#      change): every example's check layer forward and backward against the
#      CPU, the NaN layer, the generated grouped GEMM cases (with
#      accumulated_sum, accumulated_sum_kn_f32 and accumulated_into_input);
#   2. the adversarial layers (.art/ga1/adversarial) against the CPU;
#   3. moe-runner --profile of qwen3-30b-a3b forward + backward: .art/ga0
#      (main before the change) and .art/ga1, same run;
#   4. scripts/gpu-ep.sh: NCCL at P = 1 (main's axis-group communicators).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga1 timeout 330 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|check:|FAIL|accumulated" "$OUT/e2e.log" | head -60
echo "=== adversarial $(date +%T)"
A=.art/ga1/adversarial
adv() { # NAME EXPECT...
  local e=$1; shift
  local flags=()
  for x in "$@"; do flags+=(--expect-nonfinite "$x"); done
  timeout 120 $RUNNER $A/gpu --device gpu --inputs $A/in --seed 1 --iters 1 --warmup 0 \
    --entry $e --entry ${e}_fwd --entry ${e}_bwd --check-against $A/cpu "${flags[@]}" \
    >> "$OUT/adversarial.log" 2>&1
  echo "adversarial $e rc=$? $(grep -E '^check:' "$OUT/adversarial.log" | tail -3 | tr '\n' ' ')"
}
for e in same_k one_expert groups_e256; do adv $e; done
adv nonfinite_x out aux_loss res0 res1 res3 res5 res6 res7 res9 d_x d_router_weight \
  d_w_gate d_w_up d_w_down
adv logits_softmax out aux_loss z_loss res0 res4 d_x d_logits d_w_gate d_w_up d_w_down
adv logits_sigmoid aux_loss z_loss res0 d_logits
adv gemm_overflow out res2 res5 d_x d_logits d_w_gate d_w_up d_w_down
grep -c FAIL "$OUT/adversarial.log"
echo "=== profiles $(date +%T)"
for v in ga0 ga1; do
  timeout 100 $RUNNER .art/$v/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd \
    --entry moe_layer_bwd --iters 20 --warmup 3 --profile >> "$OUT/profiles.txt" 2>&1
  echo "profile $v rc=$?"
  grep -E "^entry" "$OUT/profiles.txt" | tail -2
  grep -E "grouped|\(sum\)" "$OUT/profiles.txt" | tail -12
done
echo "=== gpu-ep.sh $(date +%T)"
BUILD_GPU=/tmp/rb timeout 200 scripts/gpu-ep.sh "$OUT/ep" > "$OUT/gpu-ep.log" 2>&1; echo "gpu-ep rc=$?"
grep -E "PASS|FAIL|checks|skip" "$OUT/gpu-ep.log" | head -20
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/ep"
echo "=== end $(date +%T)"
