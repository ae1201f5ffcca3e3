#!/usr/bin/env bash
# Device call 4 (one H200): the adversarial layers (test/gpu/adversarial.test's
# runs: skewed routing, one expert, E = 256 groups, NaN/inf in x and in the
# logits, bf16 overflow) with the split-bf16 router GEMMs against the CPU;
# then bench/layer.sh on qwen3-30b-a3b with them (.art/ga/gpu) against the
# PyTorch formulations, same run.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
A=.art/ga/adversarial
adv() { # NAME ENTRY-STEM EXPECT...
  local name=$1 e=$2; shift 2
  local flags=()
  for x in "$@"; do flags+=(--expect-nonfinite "$x"); done
  timeout 120 $RUNNER $A/gpu --device gpu --inputs $A/in --seed 1 --iters 1 --warmup 0 \
    --entry $e --entry ${e}_fwd --entry ${e}_bwd --check-against $A/cpu "${flags[@]}" \
    > "$OUT/adv-$name.log" 2>&1
  echo "adversarial $name rc=$? $(grep -E '^check:' "$OUT/adv-$name.log" | tr '\n' ' ')"
  grep -E "FAIL" "$OUT/adv-$name.log" | head -5
}
for e in same_k one_expert groups_e256; do adv $e $e; done
adv nonfinite_x nonfinite_x out aux_loss res0 res1 res3 res5 res6 res7 res9 d_x d_router_weight \
  d_w_gate d_w_up d_w_down
adv logits_softmax logits_softmax out aux_loss z_loss res0 res4 d_x d_logits d_w_gate d_w_up d_w_down
adv logits_sigmoid logits_sigmoid aux_loss z_loss res0 d_logits
adv gemm_overflow gemm_overflow out res2 res5 d_x d_logits d_w_gate d_w_up d_w_down
MOE_ARTIFACTS=.art/ga/gpu bash bench/results/2026-11-29-h200-dpep-layer/run2.sh
