#!/usr/bin/env bash
# Device call 1 (one H200): the blockwise FP8 layer with the tokens
# quantized before the permute (moe.permute_rows for the scales) and the
# backward's columnwise x read from the FP8 residual in one kernel.
#   .art/f8   qwen3-30b-a3b, mixtral-8x7b: FP8 blockwise with weight inputs
#             (full size and check layers)
#   .art/f8c  seed-test, dsv3-1gpu: the same, check layers only
#   .art/b16  qwen3-30b-a3b, mixtral-8x7b in bf16 (the same compiler)
#   .art/q8   scripts/gpu-fp8-quantize.sh's cases (sm_90a and cpu)
# 1. moe.quantize/dequantize cases bit for bit against the CPU (the fused
#    dequantize -> transpose -> quantize among them).
# 2. GPU checks against the CPU, forward and backward: FP8 on every example,
#    bf16 qwen3-30b-a3b (its fills now folded into reductions).
# 3. Profiles, median of 20: FP8 and bf16 of qwen3-30b-a3b and mixtral-8x7b.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }

echo "=== (1) quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 120 scripts/gpu-fp8-quantize.sh run .art/q8 > "$OUT/logs/fp8-quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|cases" "$OUT/logs/fp8-quantize.log" | tail -16

echo "=== (2) checks $(date +%T)"
check() { # label artifact-dir name
  local near
  near=$(python3 scripts/near-tie-args.py "$2/check/gpu/$3.json")
  # shellcheck disable=SC2086 # near is a word list
  timeout 150 "$RUNNER" "$2/check/gpu/$3" --device gpu --check-against "$2/check/cpu/$3" \
    --warmup 0 --iters 1 $near > "$OUT/logs/check-$1.log" 2>&1
  echo "check $1 rc=$?: $(grep -E '^check:' "$OUT/logs/check-$1.log" | tail -1)"
  grep -E "FAIL|near-tie" "$OUT/logs/check-$1.log" | head -8
}
check qwen3-fp8 .art/f8 qwen3-30b-a3b
check mixtral-fp8 .art/f8 mixtral-8x7b
check seed-fp8 .art/f8c seed-test
check dsv3-fp8 .art/f8c dsv3-1gpu
check qwen3-bf16 .art/b16 qwen3-30b-a3b

echo "=== (3) profiles $(date +%T), $(left) s left"
prof() { # label artifact
  timeout 90 "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/logs/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/logs/profile-$1.txt"
}
prof qwen3-bf16 .art/b16/gpu/qwen3-30b-a3b
prof qwen3-fp8 .art/f8/gpu/qwen3-30b-a3b
[ "$(left)" -gt 120 ] && prof mixtral-bf16 .art/b16/gpu/mixtral-8x7b
[ "$(left)" -gt 100 ] && prof mixtral-fp8 .art/f8/gpu/mixtral-8x7b
cp "$OUT"/logs/profile-*.txt "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run1.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
