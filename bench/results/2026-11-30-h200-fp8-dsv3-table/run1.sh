#!/usr/bin/env bash
# Device call 1 (one H200): (a) ncu of the quantize kernels of
# bench/fp8-quantize.mlir (.art/qz/bench, compiled by main 7e7302c) to see
# what bounds them below HBM bandwidth; (b) bench/fp8-layer.sh on
# dsv3-1gpu, balanced routing: bf16 (.art/b17) against FP8 blockwise with
# FP8 weight inputs (.art/f4), with the dense bf16 and FP8 ceilings.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "=== quantize bench $(date +%T)"
timeout 60 "$RUNNER" .art/qz/bench/quantize-bench --device gpu --warmup 3 --iters 20 2>&1 | grep -E "^entry|error"
for e in block_1x128 transposed_1x128 dequantize_1x128; do
  timeout 60 "$NCU" --clock-control none --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section LaunchStats --section Occupancy --section SourceCounters \
    -f -o "$OUT/logs/q-$e" "$RUNNER" .art/qz/bench/quantize-bench --device gpu --entry $e \
    --iters 1 --warmup 1 > "$OUT/logs/ncu-$e.log" 2>&1
  echo "--- ncu $e rc=$?"
  "$NCU" -i "$OUT/logs/q-$e.ncu-rep" --page details > "$OUT/logs/q-$e-details.txt" 2>&1
  grep -E "Duration|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issued Warp|Eligible|Stall|Block Limit|L1/TEX Hit|L2 Hit" "$OUT/logs/q-$e-details.txt" | head -30
  "$NCU" -i "$OUT/logs/q-$e.ncu-rep" --page source --csv --print-source sass > "$OUT/logs/q-$e-sass.csv" 2>&1
done
echo "=== bench/fp8-layer.sh dsv3-1gpu balanced $(date +%T)"
MOE_RUNNER=$RUNNER BENCH_SHAPES=dsv3-1gpu BENCH_ROUTINGS=balanced \
  timeout 470 bench/fp8-layer.sh .art/b17/gpu .art/f4/gpu /tmp/fp8-layer
echo "rc=$? $(date +%T)"
cp /tmp/fp8-layer/fp8.md "$OUT"/ 2>/dev/null
tar czf "$OUT/fp8-layer-run1.tgz" -C /tmp --exclude=fp8-layer/inputs fp8-layer 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
