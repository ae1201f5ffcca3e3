#!/usr/bin/env bash
# Device call 6 (one H200), after the six-block layout went smallest
# product first (a review measured hi·hi first at rel_l2 1.44e-6 against
# 1.25e-7 reversed):
#   1. test/gpu/split-matmul.test's run (.art/sm): moe.gate, a bf16 times an
#      f32 operand, two f32 operands in two storages, against the CPU's fp32
#      loops at 1e-5;
#   2. the qwen3 check layer (forward + backward) against the CPU, with the
#      sanitizer build of the artifacts (.art/gs: MOE_GEMM_MAX_STAGES=3
#      MOE_GEMM_TMA_STORE=false scripts/gpu-artifacts.sh);
#   3. compute-sanitizer memcheck and initcheck on small, qwen3-30b-a3b, the
#      NaN and the adversarial layers (split_bf16 kernels, the finite-only
#      correction, the cuBLASLt bf16 dense GEMMs).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
timeout 60 $RUNNER .art/sm/gpu --device gpu --seed 5 --iters 1 --warmup 0 --check-against .art/sm/cpu \
  > "$OUT/split-matmul.log" 2>&1; echo "split-matmul rc=$?"
grep -E "^entry|PASS|FAIL|check:" "$OUT/split-matmul.log"
timeout 120 $RUNNER .art/gs/check/gpu/qwen3-30b-a3b --device gpu --iters 1 --warmup 0 \
  --check-against .art/gs/check/cpu/qwen3-30b-a3b > "$OUT/check-qwen3.log" 2>&1
echo "qwen3 check rc=$?"; grep -E "FAIL|^check:" "$OUT/check-qwen3.log"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs \
  SANITIZE_ARTIFACTS="small qwen3-30b-a3b nan adversarial" \
  SANITIZE_TOOLS="memcheck initcheck" SANITIZE_TIMEOUT_S=200 \
  timeout 330 scripts/gpu-sanitize.sh "$OUT/san" > "$OUT/sanitize.log" 2>&1
echo "gpu-sanitize rc=$?"
grep -v "^\s*$" "$OUT/sanitize.log" | tail -14
rm -f "$OUT/build.log" "$OUT/san/build.log"
