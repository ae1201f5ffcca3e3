#!/usr/bin/env bash
# Device call 5 (one H200, the session's last ~270 s of device time): run4 with
# the fused kernel's loads of a thread's 8 rows issued before any branch
# (run4's kernel loaded count → pair → weight and dout row by row, behind a
# branch each: 1058 µs against 171 + 469 apart), compiled on the CPU:
#   .art/q35        scripts/gpu-fp8-quantize.sh's 15 cases (combine-grad-
#                   quantize's GPU side fused)
#   .art/f34/qwen3, qwen3-cg2  qwen3-30b-a3b FP8 blockwise (weight inputs),
#                   defaults and with this fusion
# (a) the quantize cases byte-identical to the CPU reference;
# (b) memcheck and racecheck on combine-grad-quantize (only if time);
# (c) moe_layer_bwd profiles of both qwen3 artifacts.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 90 scripts/gpu-fp8-quantize.sh run .art/q35 > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|differ|cases" "$OUT/quantize.log" | head -20
echo "=== (b) sanitizers on combine-grad-quantize $(date +%T)"
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 40 $SAN --tool $tool --kernel-name kns=__moe_entry_ --print-limit 20 \
    "$RUNNER" .art/q35/gpu/combine-grad-quantize --device gpu --inputs .art/q35/in \
    --iters 1 --warmup 0 > "$OUT/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
done
echo "=== (c) qwen3 backward profiles $(date +%T)"
for v in qwen3 qwen3-cg2; do
  timeout 60 "$RUNNER" .art/f34/$v --device gpu --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/profile-$v.txt" 2>&1
  echo "--- $v rc=$?"; grep -E "^entry .* median|combine_grad|quantize_with|\(sum\)" "$OUT/profile-$v.txt"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
