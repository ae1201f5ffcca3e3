#!/usr/bin/env bash
# Device call 4 (one H200), main b86cc96 (.art/w4, build.sh fw and
# gpu-artifacts.sh for bf16): (1) qwen3-30b-a3b's FP8 weight-input check
# layer backward against the CPU (run3's ran past its limit); (2) the full-size layers profiled in one run: bf16
# (default GEMM choice) and FP8 blockwise with weight inputs, qwen3-30b-a3b
# and mixtral-8x7b, fwd and bwd (moe-runner --profile, median of 20).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
W=.art/w4
mkdir -p "$OUT/logs"
echo "=== (1) qwen3 FP8 weight-input backward check $(date +%T)"
near=$(python3 scripts/near-tie-args.py $W/fw/check/gpu/qwen3-30b-a3b.json)
timeout 200 "$RUNNER" $W/fw/check/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --check-against $W/fw/check/cpu/qwen3-30b-a3b --warmup 0 --iters 1 $near \
  > "$OUT/logs/check-qwen3-fp8w-bwd.log" 2>&1
echo "rc=$?"; grep -E "PASS|FAIL|near-ties" "$OUT/logs/check-qwen3-fp8w-bwd.log" | head -40
echo "=== (2) layers $(date +%T)"
prof() { # label artifact
  timeout 60 "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/logs/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/logs/profile-$1.txt"
}
prof qwen3-bf16 $W/bq/gpu/qwen3-30b-a3b
prof qwen3-fp8w $W/fw/gpu/qwen3-30b-a3b
prof mixtral-bf16 $W/bq/gpu/mixtral-8x7b
prof mixtral-fp8w $W/fw/gpu/mixtral-8x7b
cp "$OUT"/logs/profile-*.txt "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run4.tgz" -C "$OUT/logs" .
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
