#!/bin/bash
# Session 6, call D3: same run, 128-column tiles (.art/mfull, .art/mfull8: main ae7e384) vs gemmtile block-n=auto
# (256 columns where it applies; .art/tfull): qwen3-30b-a3b and mixtral-8x7b fwd/bwd profiles.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$ROOT" "$BUILD_GPU" /usr/local/cuda "$OUT/build.log" || { tail -30 "$OUT/build.log"; exit 1; }
prof() { # name artifacts shapes iters
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$ROOT/.art/$2/gpu PROFILE_SHAPES="$3" PROFILE_ITERS=$4 RUNNER_TIMEOUT_S=100 timeout 110 bash bench/profile.sh "$OUT/p/$1" > /dev/null 2>&1
  echo "=== $1"; cat "$OUT"/p/$1/profile-*.txt | grep -E "^entry|grouped" | grep -vE "\s[0-9]\.[0-9]\s+0\.[0-9]%"
}
prof n128-qwen3 mfull qwen3-30b-a3b 5
prof n256-qwen3 tfull qwen3-30b-a3b 5
prof n128-mixtral mfull8 mixtral-8x7b 3
prof n256-mixtral tfull mixtral-8x7b 3
cd "$OUT" && tar czf logs.tgz p 2>/dev/null; rm -rf p
