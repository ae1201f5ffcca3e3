#!/usr/bin/env bash
# Device call 1 (one H200): scripts/gpu-sanitize.sh, memcheck and initcheck,
# one run at a time (SANITIZE_JOBS=1), over sanitizer builds of main
# 75c9c0a made with no cuBLASLt kernel left in the examples:
#   .art/gs6  MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
#             MOE_DENSE_MATMULS=false CHECK_ONLY=1 scripts/gpu-artifacts.sh
#   .art/fs6  the same with MOE_FP8_RECIPE=blockwise (seed-test, qwen3-30b-a3b,
#             mixtral-8x7b; small contracts over 32, which blockwise refuses)
# The cublaslt artifact (a probe of the cuBLASLt path's TMA stores, which
# initcheck does not see) is left out: no example uses cuBLASLt here.
set -u
cd "$(dirname "$0")/../../.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== bf16 $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs6 SANITIZE_TOOLS="memcheck initcheck" SANITIZE_JOBS=1 \
  SANITIZE_ARTIFACTS="small seed-test qwen3-30b-a3b mixtral-8x7b dsv3-1gpu gemm nan adversarial" \
  SANITIZE_TIMEOUT_S=150 SANITIZE_LARGE_TIMEOUT_S=200 \
  timeout 430 scripts/gpu-sanitize.sh "$OUT/bf16" > "$OUT/sanitize-bf16-run1.log" 2>&1
echo "bf16 rc=$?"
echo "=== fp8 $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/fs6 SANITIZE_TOOLS="memcheck initcheck" SANITIZE_JOBS=1 \
  SANITIZE_ARTIFACTS="seed-test qwen3-30b-a3b mixtral-8x7b" SANITIZE_TIMEOUT_S=90 \
  timeout 120 scripts/gpu-sanitize.sh "$OUT/fp8" > "$OUT/sanitize-fp8-run1.log" 2>&1
echo "fp8 rc=$?"
for f in bf16 fp8; do sed -n '/compute-sanitizer runs/,$p' "$OUT/sanitize-$f-run1.log"; done
tar czf "$OUT/sanitize-run1-logs.tgz" -C "$OUT" bf16 fp8
rm -rf "$OUT/bf16" "$OUT/fp8" "$OUT/build.log"
echo "=== end $(date +%T)"
