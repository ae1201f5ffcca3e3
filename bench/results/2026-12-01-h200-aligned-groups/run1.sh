#!/usr/bin/env bash
# Device call 1 (one H200): do group sizes that are multiples of 128 rows
# (moe.layer align = 128: moe.permute pads each group) pay for FP8 layers?
# Artifacts compiled on the MLIR machine (compiler b8263d6):
#   .art/wg   build-wgrad.sh: qwen3-30b-a3b's and dsv3-1gpu's FP8 blockwise
#             weight gradients alone
#   .art/b1   scripts/gpu-artifacts.sh, bf16 (qwen3-30b-a3b, dsv3-1gpu)
#   .art/f1   the same, MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#   .art/fa   as f1 with `align = 128` on each example's moe.layer
# (a) the weight gradients alone on aligned / routed / skewed sizes;
# (b) qwen3-30b-a3b's aligned FP8 check layer forward and backward vs CPU;
# (c) bench/fp8-layer.sh at qwen3-30b-a3b: bf16, FP8, FP8 aligned;
# (d) the aligned FP8 backward's profile at qwen3-30b-a3b and dsv3-1gpu.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((560 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) weight gradients alone $(date +%T)"
timeout 120 python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa --shapes qwen3-30b-a3b,dsv3-1gpu base=.art/wg/wgrad \
  > "$OUT/wgrad-align.md" 2>&1
echo "rc=$?"; cat "$OUT/wgrad-align.md"
echo "=== (b) aligned check layer $(date +%T)"
Q=.art/fa/check/gpu/qwen3-30b-a3b
timeout 90 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --check-against .art/fa/check/cpu/qwen3-30b-a3b --reuse-fp8-weights \
  $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-qwen3-aligned.log" 2>&1
echo "rc=$?"; grep -E "^check|FAIL|d_x |d_w_" "$OUT/check-qwen3-aligned.log" | head -8
echo "=== (c) bench/fp8-layer.sh qwen3-30b-a3b $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=qwen3-30b-a3b RUNNER_TIMEOUT_S=90 \
  FP8_VARIANT_ART=.art/fa/gpu FP8_VARIANT_LABEL="FP8, groups aligned to 128" \
  timeout "$(( $(left) - 200 ))" bench/fp8-layer.sh .art/b1/gpu .art/f1/gpu /tmp/fp8-q
echo "rc=$?"; cp /tmp/fp8-q/fp8.md "$OUT"/fp8-qwen3.md 2>/dev/null; cat /tmp/fp8-q/fp8.md
echo "=== (d) profiles $(date +%T), $(left) s left"
timeout 60 "$RUNNER" .art/fa/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --iters 20 --warmup 3 --profile > "$OUT/profile-qwen3-aligned.txt" 2>&1
echo "rc=$?"; grep -E "^entry .* median|weight_grad|quantize|\(sum\)" "$OUT/profile-qwen3-aligned.txt"
if [ "$(left)" -gt 130 ]; then
  timeout "$(( $(left) - 5 ))" "$RUNNER" .art/fa/gpu/dsv3-1gpu --device gpu --entry moe_layer_bwd \
    --iters 5 --warmup 2 --profile > "$OUT/profile-dsv3-aligned.txt" 2>&1
  echo "rc=$?"; grep -E "^entry .* median|weight_grad|grouped_matmul|\(sum\)" "$OUT/profile-dsv3-aligned.txt"
else
  echo "skip dsv3: $(left) s left"
fi
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
