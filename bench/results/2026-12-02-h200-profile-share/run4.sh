#!/usr/bin/env bash
# Device call 4 (one H200): bench/fp8-quantize.mlir's kernels, the staged
# transposed quantize of a dequantized FP8 source on 256-thread blocks (as
# at f45b1dd: .art/qzold) against 128-thread blocks (this tree: .art/qz),
# alternating, three rounds each, medians of 50 after 5 warm-ups.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
for round in 1 2 3; do
  for v in qzold/quantize-bench qz/bench/quantize-bench; do
    timeout 60 "$RUNNER" .art/$v --device gpu --warmup 5 --iters 50 \
      --entry dequantized_transposed_1x128 --entry transposed_1x128 > "$OUT/bench-$round-${v%%/*}.log" 2>&1
    echo "round $round $v rc=$?: $(grep -E "^entry" "$OUT/bench-$round-${v%%/*}.log" | sed 's/ on gpu.*: median/: median/; s/ over.*//' | tr '\n' ';')"
  done
done
python3 bench/fp8-quantize-bandwidth.py bench/fp8-quantize.mlir "$OUT/bench-3-qz.log" 2>&1 | head -4
rm -f "$OUT/build.log"
