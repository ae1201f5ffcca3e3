#!/usr/bin/env bash
# Device call 3 (one H200): the router projection and its adjoints as bf16
# tensor-core GEMMs on operands split into bf16 parts (SplitMatmul.h).
#   1. moe-gpu-grouped-gemm-test: moert_matmul_bf16 (and f32) against a
#      double reference, every storage of A and B;
#   2. scripts/gpu-e2e.sh on .art/ga (scripts/gpu-artifacts.sh): every
#      example's check layer forward and backward vs the CPU, the NaN
#      propagation layer, the adversarial layers, the GEMM cases;
#   3. moe-runner --profile of qwen3-30b-a3b (.art/ga/gpu, gemm=auto),
#      against run1's profile of the same layer with the f32 GEMMs.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
echo "=== build $(date +%T)"
if ! { cmake -G Ninja -S runtime -B /tmp/rb -DCMAKE_BUILD_TYPE=Release \
         -DCUDAToolkit_ROOT=/usr/local/cuda -DMOE_GPU_BUILD_BENCH=OFF &&
       cmake --build /tmp/rb --target moe-runner moe_runtime_gpu moe-gpu-grouped-gemm-test; } \
       > "$OUT/build.log" 2>&1; then tail -30 "$OUT/build.log"; exit 1; fi
T=$(find /tmp/rb -name moe-gpu-grouped-gemm-test -type f -perm -u+x | head -1)
echo "=== grouped GEMM test $(date +%T)"
timeout 200 "$T" 7 > "$OUT/gemm-test.log" 2>&1; echo "gemm-test rc=$?"
grep -c PASS "$OUT/gemm-test.log"; grep -E "FAIL|matmul_bf16 m=256" "$OUT/gemm-test.log" | head -20; tail -2 "$OUT/gemm-test.log"
echo "=== gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga timeout 330 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^===|: PASS|: FAIL|check:|FAIL" "$OUT/e2e.log" | head -60
echo "=== profile qwen3 $(date +%T)"
timeout 90 /tmp/rb/bin/moe-runner .art/ga/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd \
  --entry moe_layer_bwd --iters 10 --warmup 2 --profile > "$OUT/profile-qwen3-split.txt" 2>&1
echo "profile rc=$?"; grep -E "^entry|split|matmul" "$OUT/profile-qwen3-split.txt"
rm -f "$OUT/build.log" "$OUT/e2e/build.log"
echo "=== end $(date +%T)"
