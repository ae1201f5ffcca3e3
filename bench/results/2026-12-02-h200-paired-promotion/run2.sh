#!/usr/bin/env bash
# Device call 2 (one H200, warm after run1): qwen3-30b-a3b's FP8 layer
# (blockwise, FP8 weight inputs; build.sh's .art/f paired, .art/fu one
# step at a time) against bf16 (.art/b):
# (a) the FP8 check layers of seed-test and qwen3-30b-a3b against the CPU,
#     forward and backward (paired);
# (b) bench/fp8-layer.sh, qwen3-30b-a3b balanced: bf16, FP8 paired and
#     FP8 unpaired (FP8_VARIANT_ART) in the same call on the same inputs;
# (c) the FP8 backward's profile, paired then unpaired.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
export MOE_RUNNER=$RUNNER
echo "=== (a) FP8 check layers vs CPU $(date +%T)"
for s in seed-test qwen3-30b-a3b; do
  Q=.art/f/check/gpu/$s
  timeout 90 "$RUNNER" $Q --device gpu --check-against .art/f/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-fp8-$s.log" 2>&1
  echo "$s rc=$? $(grep -c PASS "$OUT/check-fp8-$s.log") PASS $(grep -c FAIL "$OUT/check-fp8-$s.log") FAIL"
  grep -E "near-tie| d_x | d_w_|  out " "$OUT/check-fp8-$s.log" | head -8
done
echo "=== (b) FP8 vs bf16, qwen3-30b-a3b $(date +%T), $(left) s left"
FP8_VARIANT_ART=.art/fu/gpu FP8_VARIANT_LABEL="FP8 unpaired" \
  BENCH_SHAPES=qwen3-30b-a3b BENCH_ROUTINGS=balanced BENCH_REPS=20 RUNNER_TIMEOUT_S=60 \
  timeout 260 bench/fp8-layer.sh .art/b/gpu .art/f/gpu /tmp/fp8 > "$OUT/fp8.log" 2>&1
echo "rc=$?"; cp /tmp/fp8/fp8.md "$OUT/fp8-qwen3.md" 2>/dev/null; cat /tmp/fp8/fp8.md 2>/dev/null | head -30
echo "=== (c) FP8 backward profiles $(date +%T), $(left) s left"
for v in f fu; do
  [ "$(left)" -gt 40 ] || { echo "skip $v"; continue; }
  timeout 60 "$RUNNER" .art/$v/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
    --iters 10 --warmup 2 --profile > "$OUT/profile-bwd-$v.txt" 2>&1
  echo "--- $v rc=$?"; grep -E "^entry .* median|weight_grad|quantize|\(sum\)" "$OUT/profile-bwd-$v.txt"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
