#!/usr/bin/env bash
# Device call 4 (one H200), the compiler of e70c0ee:
#   .art/g10 FP8 blockwise with weight inputs, qwen3-30b-a3b and mixtral-8x7b
#            (full size, check layers): run3's plus the pair's second product
#            in a loop of its own and the dequantized transposed quantize
#            rounding by cvt
#   .art/q10 scripts/gpu-fp8-quantize.sh's cases with that compiler
#   .art/b16 run1's bf16 qwen3-30b-a3b and mixtral-8x7b (bf16 code is
#            unchanged since)
# 1. The quantize cases bit for bit against the CPU.
# 2. qwen3-30b-a3b's FP8 check layer, moe_layer_bwd alone, against the CPU.
# 3. Profiles, median of 20, in one call: FP8 and bf16 of qwen3-30b-a3b and
#    mixtral-8x7b.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
start=$(date +%s)
left() { echo $((400 - ($(date +%s) - start))); }

echo "=== (1) quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 100 scripts/gpu-fp8-quantize.sh run .art/q10 > "$OUT/logs/fp8-quantize.log" 2>&1
echo "rc=$?"; grep -E "large|FAIL|cases" "$OUT/logs/fp8-quantize.log" | tail -4

echo "=== (2) qwen3 FP8 backward check $(date +%T)"
timeout 200 "$RUNNER" .art/g10/check/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --check-against .art/g10/check/cpu/qwen3-30b-a3b --warmup 0 --iters 1 \
  > "$OUT/logs/check-qwen3-fp8-bwd.log" 2>&1
echo "rc=$?: $(grep -E '^check:' "$OUT/logs/check-qwen3-fp8-bwd.log" | tail -1)"
grep -E "PASS|FAIL" "$OUT/logs/check-qwen3-fp8-bwd.log" | grep -v ' res' | head -12

echo "=== (3) profiles $(date +%T), $(left) s left"
prof() { # label artifact
  timeout "$3" "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/logs/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/logs/profile-$1.txt"
}
prof qwen3-fp8 .art/g10/gpu/qwen3-30b-a3b 70
prof qwen3-bf16 .art/b16/gpu/qwen3-30b-a3b 50
[ "$(left)" -gt 100 ] && prof mixtral-fp8 .art/g10/gpu/mixtral-8x7b 100
[ "$(left)" -gt 70 ] && prof mixtral-bf16 .art/b16/gpu/mixtral-8x7b 70
cp "$OUT"/logs/profile-*.txt "$OUT"/logs/check-*.log "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run4.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
