#!/usr/bin/env bash
# Device call 3 (one H200), the compiler that lands (88d91e2: both fusions
# of run1/run2 off, so FP8 code as at f58f66b):
#   .art/f3   FP8 blockwise with weight inputs: qwen3-30b-a3b, seed-test,
#             mixtral-8x7b (full size and check layers)
#   .art/b17  bf16, every example (full size; bf16 code unchanged)
# 1. FP8 check layers against the CPU, forward and backward (moe_layer_fwd,
#    moe_layer_bwd), in two background groups: the CPU references are
#    single-threaded loop nests that take minutes (dsv3-1gpu's did not fit
#    this session's device time).
# 2. bench/fp8-layer.sh, FP8 against bf16 on the same three shapes,
#    balanced and skewed, with the dense bf16 and FP8 ceilings; it starts
#    once the checks' GPU parts are done (their CPU references keep running).
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
start=$(date +%s)
left() { echo $((515 - ($(date +%s) - start))); }
check() { # label example entry timeout
  timeout "$4" "$RUNNER" ".art/f3/check/gpu/$2" --device gpu --entry "$3" \
    --check-against ".art/f3/check/cpu/$2" --warmup 0 --iters 1 \
    > "$OUT/logs/check-$1.log" 2>&1
  echo "--- $1 rc=$?: $(grep -E '^check:' "$OUT/logs/check-$1.log" | tail -1)"
  grep -E "PASS|FAIL" "$OUT/logs/check-$1.log" | grep -v ' res' | head -8
}
# group LABEL:EXAMPLE:ENTRY...: checks one after another, each with what is
# left.
group() {
  for spec in "$@"; do
    IFS=: read -r label example entry <<<"$spec"
    [ "$(left)" -gt 30 ] || { echo "--- $label: no time left"; continue; }
    check "$label" "$example" "$entry" "$(left)"
  done
}
echo "=== (1) checks $(date +%T)"
group mixtral-fp8-bwd:mixtral-8x7b:moe_layer_bwd mixtral-fp8-fwd:mixtral-8x7b:moe_layer_fwd \
  > "$OUT/logs/summary-mixtral.txt" 2>&1 &
group qwen3-fp8-bwd:qwen3-30b-a3b:moe_layer_bwd qwen3-fp8-fwd:qwen3-30b-a3b:moe_layer_fwd \
  seed-fp8-bwd:seed-test:moe_layer_bwd seed-fp8-fwd:seed-test:moe_layer_fwd \
  > "$OUT/logs/summary-qwen3-seed.txt" 2>&1 &
sleep 40
echo "=== (2) bench/fp8-layer.sh $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER RUNNER_TIMEOUT_S=100 BENCH_SHAPES=qwen3-30b-a3b,seed-test,mixtral-8x7b \
  timeout "$(( $(left) - 10 ))" bench/fp8-layer.sh .art/b17/gpu .art/f3/gpu /tmp/fp8-layer
echo "rc=$?"
wait
echo "=== checks"
cat "$OUT"/logs/summary-*.txt
cp /tmp/fp8-layer/fp8.md "$OUT"/ 2>/dev/null
tar czf "$OUT/fp8-layer-run3.tgz" -C /tmp --exclude=fp8-layer/inputs fp8-layer 2>/dev/null
cp "$OUT"/logs/check-*.log "$OUT"/ 2>/dev/null
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
