#!/usr/bin/env bash
# Device call 1 (one H200), the compiler of this session's
# moe.quantize_with_transpose (moe-fuse quantize-with-transpose):
#   .art/q11  scripts/gpu-fp8-quantize.sh's cases (BENCH=1: with the
#             with_transpose_1x128 bandwidth entry)
#   .art/f1   FP8 blockwise with weight inputs, every example (full size and
#             check layers)
#   .art/f1n  qwen3-30b-a3b's full-size FP8 layer with
#             --fp8-quantize-with-transpose=false (the two quantizes apart)
# 1. The quantize cases bit for bit against the CPU, and their bandwidth.
# 2. qwen3-30b-a3b's FP8 check layer, moe_layer_bwd, against the CPU.
# 3. Profiles, median of 20: qwen3-30b-a3b FP8 with and without the fusion
#    (bf16 against FP8: run2).
# 4. seed-test's FP8 check layer, forward and backward, against the CPU.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
start=$(date +%s)
left() { echo $((480 - ($(date +%s) - start))); }

echo "=== (1) quantize cases $(date +%T)"
# Their inputs are written here (seeded: the same files as on the CPU).
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/q11/in
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/q11 > "$OUT/logs/fp8-quantize.log" 2>&1
echo "rc=$?"; grep -E "large|FAIL|cases|GB/s|with_transpose" "$OUT/logs/fp8-quantize.log" | tail -12

check() { # label artifact entry timeout
  timeout "$4" "$RUNNER" ".art/f1/check/gpu/$2" --device gpu --entry "$3" \
    --check-against ".art/f1/check/cpu/$2" --warmup 0 --iters 1 \
    > "$OUT/logs/check-$1.log" 2>&1
  echo "--- $1 rc=$?: $(grep -E '^check:' "$OUT/logs/check-$1.log" | tail -1)"
  grep -E "PASS|FAIL" "$OUT/logs/check-$1.log" | grep -v ' res' | head -8
}
echo "=== (2) qwen3 FP8 backward check $(date +%T)"
check qwen3-fp8-bwd qwen3-30b-a3b moe_layer_bwd 170

echo "=== (3) profiles $(date +%T), $(left) s left"
prof() { # label artifact timeout
  timeout "$3" "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/logs/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/logs/profile-$1.txt"
}
prof qwen3-fp8 .art/f1/gpu/qwen3-30b-a3b 70
prof qwen3-fp8-apart .art/f1n/qwen3-30b-a3b 70

echo "=== (4) seed-test FP8 checks $(date +%T), $(left) s left"
[ "$(left)" -gt 60 ] && check seed-fp8-fwd seed-test moe_layer_fwd "$(( $(left) / 2 ))"
[ "$(left)" -gt 40 ] && check seed-fp8-bwd seed-test moe_layer_bwd "$(left)"
cp "$OUT"/logs/profile-*.txt "$OUT"/logs/check-*.log "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run1.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
