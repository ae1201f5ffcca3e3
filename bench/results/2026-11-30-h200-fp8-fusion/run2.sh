#!/usr/bin/env bash
# Device call 2 (one H200). run1 ran out of time in the FP8 checks: the CPU
# reference of an FP8 check layer takes minutes there. This call checks the
# backward of qwen3-30b-a3b alone (the forward passed in run1), then
# profiles.
#   .art/g8   FP8 blockwise with weight inputs, every example, full size and
#             check layers: run1's changes plus the blockwise input
#             gradient's two dgrads as one kernel (dff024a)
#   .art/b16  qwen3-30b-a3b, mixtral-8x7b in bf16 (the compiler of run1)
# 1. qwen3-30b-a3b's FP8 check layer, moe_layer_bwd, against the CPU.
# 2. Profiles, median of 20: FP8 and bf16 of qwen3-30b-a3b and
#    mixtral-8x7b (moe_layer_fwd, moe_layer_bwd, the weight quantization).
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
start=$(date +%s)
left() { echo $((580 - ($(date +%s) - start))); }

echo "=== (1) qwen3 FP8 backward check $(date +%T)"
near=$(python3 scripts/near-tie-args.py .art/g8/check/gpu/qwen3-30b-a3b.json)
# shellcheck disable=SC2086 # near is a word list
timeout 300 "$RUNNER" .art/g8/check/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --check-against .art/g8/check/cpu/qwen3-30b-a3b --warmup 0 --iters 1 $near \
  > "$OUT/logs/check-qwen3-fp8-bwd.log" 2>&1
echo "rc=$?: $(grep -E '^check:' "$OUT/logs/check-qwen3-fp8-bwd.log" | tail -1)"
grep -E "PASS|FAIL|near-tie" "$OUT/logs/check-qwen3-fp8-bwd.log" | grep -v ' res' | head -12

echo "=== (2) profiles $(date +%T), $(left) s left"
prof() { # label artifact
  timeout 80 "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/logs/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/logs/profile-$1.txt"
}
prof qwen3-fp8 .art/g8/gpu/qwen3-30b-a3b
prof qwen3-bf16 .art/b16/gpu/qwen3-30b-a3b
[ "$(left)" -gt 90 ] && prof mixtral-fp8 .art/g8/gpu/mixtral-8x7b
[ "$(left)" -gt 90 ] && prof mixtral-bf16 .art/b16/gpu/mixtral-8x7b
cp "$OUT"/logs/profile-*.txt "$OUT"/logs/check-*.log "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run2.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
