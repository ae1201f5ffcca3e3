#!/usr/bin/env bash
# Device call 3 (one H200): the compiler with both fusions on by default
# (5d5193b), on the two shapes runs 1-2 did not cover:
#   .art/f33   FP8 blockwise, FP8 weight inputs, mixtral-8x7b + dsv3-1gpu
#              (the defaults: both-ways quantize and glu-into-quantize)
#   .art/b33   bf16, the same shapes
# (a) f33's check layers against the CPU, forward and backward;
# (b) bench/fp8-layer.sh on mixtral-8x7b, then dsv3-1gpu (balanced only)
#     while time is left.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((520 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) check layers $(date +%T), $(left) s left"
for s in mixtral-8x7b dsv3-1gpu; do
  Q=.art/f33/check/gpu/$s
  timeout 120 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --check-against .art/f33/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-$s.log" 2>&1
  echo "$s rc=$?"; grep -E "^check|FAIL|d_x|d_w" "$OUT/check-$s.log" | head -12
done
echo "=== (b) bench/fp8-layer.sh mixtral-8x7b $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=mixtral-8x7b RUNNER_TIMEOUT_S=90 timeout "$(( $(left) - 5 ))" \
  bench/fp8-layer.sh .art/b33/gpu .art/f33/gpu /tmp/fp8-mixtral
echo "rc=$?"; cp /tmp/fp8-mixtral/fp8.md "$OUT"/fp8-mixtral-8x7b.md 2>/dev/null
echo "=== (b) bench/fp8-layer.sh dsv3-1gpu balanced $(date +%T), $(left) s left"
if [ "$(left)" -gt 200 ]; then
  MOE_RUNNER=$RUNNER BENCH_SHAPES=dsv3-1gpu BENCH_ROUTINGS=balanced BENCH_REPS=10 \
    RUNNER_TIMEOUT_S=150 timeout "$(( $(left) - 5 ))" \
    bench/fp8-layer.sh .art/b33/gpu .art/f33/gpu /tmp/fp8-dsv3
  echo "rc=$?"; cp /tmp/fp8-dsv3/fp8.md "$OUT"/fp8-dsv3-1gpu.md 2>/dev/null
  grep -h "median" /tmp/fp8-dsv3/*.log 2>/dev/null | head
else
  echo "skip: $(left) s left"
fi
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
