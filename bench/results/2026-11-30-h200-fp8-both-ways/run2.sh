#!/usr/bin/env bash
# Device call 2 (one H200), the compiler of run1 changed twice:
# moe.quantize_with_transpose's schedule with 8 rows a lane and its chunks in
# an scf.for (run1's unrolled kernel took 3.2 ms where the two quantizes
# took 0.58), and moe-fuse's elementwise-epilogue on block-scaled FP8
# dgrads (the activation adjoint in the FP8 fc2 dgrad's epilogue).
#   .art/q12  scripts/gpu-fp8-quantize.sh's cases (BENCH=1)
#   .art/f2   FP8 blockwise with weight inputs, every example (full size and
#             check layers)
#   .art/f2n  qwen3-30b-a3b's full-size FP8 layer with both off
#             (--fp8-quantize-with-transpose=false --gemm-epilogue-fusion=false)
#   .art/b17  bf16, every example (full size)
# 1. The quantize cases bit for bit against the CPU, and their bandwidth.
# 2. Profiles, median of 20: qwen3-30b-a3b FP8 with and without the changes.
# 3. bench/fp8-layer.sh: FP8 against bf16 on every shape, balanced and
#    skewed, with the dense bf16 and FP8 ceilings.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
start=$(date +%s)
left() { echo $((530 - ($(date +%s) - start))); }

echo "=== (1) quantize cases $(date +%T)"
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/q12/in
RUNNER=$RUNNER timeout 120 scripts/gpu-fp8-quantize.sh run .art/q12 > "$OUT/logs/fp8-quantize.log" 2>&1
echo "rc=$?"; grep -E "large|FAIL|cases|GB/s" "$OUT/logs/fp8-quantize.log" | tail -9

echo "=== (2) profiles $(date +%T), $(left) s left"
prof() { # label artifact timeout
  timeout "$3" "$RUNNER" "$2" --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/logs/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/logs/profile-$1.txt"
}
prof qwen3-fp8 .art/f2/gpu/qwen3-30b-a3b 60
prof qwen3-fp8-before .art/f2n/qwen3-30b-a3b 60

echo "=== (3) bench/fp8-layer.sh $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER RUNNER_TIMEOUT_S=60 timeout "$(left)" \
  bench/fp8-layer.sh .art/b17/gpu .art/f2/gpu /tmp/fp8-layer
echo "rc=$?"
cp /tmp/fp8-layer/fp8.md "$OUT"/ 2>/dev/null
tar czf "$OUT/fp8-layer-run2.tgz" -C /tmp --exclude=fp8-layer/inputs fp8-layer 2>/dev/null
cp "$OUT"/logs/profile-*.txt "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run2.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
