#!/usr/bin/env bash
# Device call 5 (one H200), the compiler of ad9884f (what lands: the
# quantize before the permute, the FP8 dgrad pair up to K = 4096, no
# dequantized transposed quantize):
#   .art/g11 qwen3-30b-a3b FP8 blockwise with weight inputs
#   .art/b16 run1's bf16 qwen3-30b-a3b
# Profiles, median of 20, in one call.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
for v in "qwen3-fp8 .art/g11" "qwen3-bf16 .art/b16"; do
  set -- $v
  timeout 60 "$RUNNER" "$2/gpu/qwen3-30b-a3b" --device gpu --iters 20 --warmup 3 --profile \
    > "$OUT/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/profile-$1.txt"
done
rm -f "$OUT/build.log"
