#!/usr/bin/env bash
# Device call 5 (one H200): after x·hi + finite-only (x·mid + x·lo) in the
# split router GEMMs (run4: nonfinite_x's logits held NaN where fp32 gives
# ±inf). The adversarial layers, every example's check layer and the NaN
# layer against the CPU, and the qwen3 profile again (.art/ga recompiled).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
A=.art/ga/adversarial
adv() { # NAME EXPECT...
  local e=$1; shift
  local flags=()
  for x in "$@"; do flags+=(--expect-nonfinite "$x"); done
  timeout 120 $RUNNER $A/gpu --device gpu --inputs $A/in --seed 1 --iters 1 --warmup 0 \
    --entry $e --entry ${e}_fwd --entry ${e}_bwd --check-against $A/cpu "${flags[@]}" \
    > "$OUT/adv-$e.log" 2>&1
  echo "adversarial $e rc=$? $(grep -E '^check:' "$OUT/adv-$e.log" | tr '\n' ' ')"
  grep -E "FAIL" "$OUT/adv-$e.log" | head -5
}
for e in same_k one_expert groups_e256; do adv $e; done
adv nonfinite_x out aux_loss res0 res1 res3 res5 res6 res7 res9 d_x d_router_weight \
  d_w_gate d_w_up d_w_down
adv logits_softmax out aux_loss z_loss res0 res4 d_x d_logits d_w_gate d_w_up d_w_down
adv logits_sigmoid aux_loss z_loss res0 d_logits
adv gemm_overflow out res2 res5 d_x d_logits d_w_gate d_w_up d_w_down
echo "=== gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga timeout 330 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|: PASS|: FAIL|check:|FAIL" "$OUT/e2e.log" | head -40
echo "=== profile qwen3 $(date +%T)"
timeout 90 $RUNNER .art/ga/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd \
  --entry moe_layer_bwd --iters 10 --warmup 2 --profile > "$OUT/profile-qwen3-split2.txt" 2>&1
echo "profile rc=$?"; grep -E "^entry|split|matmul" "$OUT/profile-qwen3-split2.txt"
rm -rf "$OUT/build.log" "$OUT/e2e"
echo "=== end $(date +%T)"
