#!/bin/bash
# Session 7, call 9 (one H100): the block-n=auto rule as it stands (256 for weight gradients and grouped
# matmuls with N >= 4096) against 128-wide tiles everywhere, same run: qwen3-30b-a3b and mixtral-8x7b profiles.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$ROOT" "$BUILD_GPU" /usr/local/cuda "$OUT/build.log" || { tail -30 "$OUT/build.log"; exit 1; }
prof() { # name artifacts shapes iters
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$ROOT/.art/$2/gpu PROFILE_SHAPES="$3" PROFILE_ITERS=$4 RUNNER_TIMEOUT_S=100 timeout 110 bash bench/profile.sh "$OUT/p/$1" > /dev/null 2>&1
  echo "=== $1"; cat "$OUT"/p/$1/profile-*.txt | grep -E "^entry|grouped" | grep -vE "\s[0-9]\.[0-9]\s+0\.[0-9]%"
}
prof n128-qwen3 n128 qwen3-30b-a3b 5
prof auto-qwen3 nauto qwen3-30b-a3b 5
prof n128-mixtral n128 mixtral-8x7b 3
prof auto-mixtral nauto mixtral-8x7b 3
cd "$OUT" && tar czf logs.tgz p 2>/dev/null; rm -rf p
