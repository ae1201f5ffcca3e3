#!/usr/bin/env bash
# Device call 2 (one H200): (a) scripts/gpu-fp8-quantize.sh: the 13 quantize
# cases (.art/qz2, compiled by this session's compiler, whose transposed
# quantize now reads a dequantized FP8 residual directly) byte-identical to
# the CPU, and the quantize bench with the new dequantized_transposed_1x128
# entry; (b) bench/fp8-layer.sh on dsv3-1gpu, skewed routing: bf16
# (.art/b17) against FP8 blockwise with FP8 weight inputs (.art/f4), as
# run1 did for balanced.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/qz2 2>&1 | tail -25
echo "rc=$? $(date +%T)"
echo "=== bench/fp8-layer.sh dsv3-1gpu skewed $(date +%T)"
MOE_RUNNER=$RUNNER BENCH_SHAPES=dsv3-1gpu BENCH_ROUTINGS=skewed \
  timeout 430 bench/fp8-layer.sh .art/b17/gpu .art/f4/gpu /tmp/fp8-layer
echo "rc=$? $(date +%T)"
cp /tmp/fp8-layer/fp8.md "$OUT"/ 2>/dev/null
tar czf "$OUT/fp8-layer-run2.tgz" -C /tmp --exclude=fp8-layer/inputs fp8-layer 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
