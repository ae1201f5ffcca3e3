#!/usr/bin/env bash
# Device call 2 (one H200): scripts/gpu-sanitize.sh, racecheck and synccheck
# (one at a time), unfiltered racecheck, over the 2-stage sanitizer builds of
# main 75c9c0a without cuBLASLt kernels in the examples:
#   .art/gs7  MOE_GEMM=generated MOE_GEMM_MAX_STAGES=2 MOE_GEMM_TMA_STORE=false
#             MOE_DENSE_MATMULS=false CHECK_ONLY=1 scripts/gpu-artifacts.sh
#   .art/fs7  the same with MOE_FP8_RECIPE=blockwise (seed-test, qwen3-30b-a3b,
#             mixtral-8x7b)
set -u
cd "$(dirname "$0")/../../.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== bf16 $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs7 SANITIZE_TOOLS="racecheck synccheck" \
  SANITIZE_ARTIFACTS="small seed-test qwen3-30b-a3b mixtral-8x7b dsv3-1gpu gemm nan adversarial" \
  SANITIZE_SHARED_ARTIFACTS="small seed-test qwen3-30b-a3b mixtral-8x7b dsv3-1gpu gemm nan adversarial" \
  SANITIZE_TIMEOUT_S=120 SANITIZE_LARGE_TIMEOUT_S=190 \
  timeout 440 scripts/gpu-sanitize.sh "$OUT/bf16" > "$OUT/sanitize-bf16-run2.log" 2>&1
echo "bf16 rc=$?"
echo "=== fp8 $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/fs7 SANITIZE_TOOLS="racecheck synccheck" \
  SANITIZE_ARTIFACTS="seed-test qwen3-30b-a3b mixtral-8x7b" \
  SANITIZE_SHARED_ARTIFACTS="seed-test qwen3-30b-a3b mixtral-8x7b" SANITIZE_TIMEOUT_S=60 \
  timeout 110 scripts/gpu-sanitize.sh "$OUT/fp8" > "$OUT/sanitize-fp8-run2.log" 2>&1
echo "fp8 rc=$?"
for f in bf16 fp8; do sed -n '/racecheck\/synccheck runs/,$p' "$OUT/sanitize-$f-run2.log"; done
tar czf "$OUT/sanitize-run2-logs.tgz" -C "$OUT" bf16 fp8
rm -rf "$OUT/bf16" "$OUT/fp8" "$OUT/build.log"
echo "=== end $(date +%T)"
