#!/bin/bash
# Session 7, call 4 (one H100/H200): issue 17: compute-sanitizer memcheck + initcheck over every example's
# check-size artifact with generated GEMMs capped at 3 stages (moe-compile --gemm-max-stages=3), the GEMM
# cases, NaN and adversarial layers; racecheck/synccheck on the GEMM cases.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
MOE_ARTIFACTS_ROOT=$ROOT/.art/san3 SANITIZE_ARTIFACTS="small seed-test qwen3-30b-a3b mixtral-8x7b dsv3-1gpu gemm nan adversarial" \
  SANITIZE_TOOLS="memcheck initcheck racecheck synccheck" SANITIZE_SHARED_ARTIFACTS="gemm" SANITIZE_TIMEOUT_S=200 \
  timeout 560 bash scripts/gpu-sanitize.sh "$OUT/san" > "$OUT/san.txt" 2>&1
echo "san rc=$?"; sed -n '/=== summary/,$p' "$OUT/san.txt" | head -60
cd "$OUT" && tar czf logs.tgz san.txt san 2>/dev/null; rm -rf san
