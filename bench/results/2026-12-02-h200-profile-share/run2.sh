#!/usr/bin/env bash
# Device call 2 (one H200). Artifacts compiled on the MLIR machine:
#   .art/b    run1's full-shape bf16 artifacts (compiler 149af12, gemm=auto,
#             moe-generate-vjp recompute=none), and mixtral-8x7b-generated,
#             dsv3-1gpu-generated (--gemm=generated: no cuBLASLt grouped
#             GEMM, so that --cuda-graph can capture the entries)
#   .art/b2   seed-test with the z-loss summed by a warp (this tree)
#   .art/i    CHECK_ONLY=1 MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3
#             MOE_GEMM_TMA_STORE=false MOE_DENSE_MATMULS=false (initcheck:
#             no cuBLASLt TMA stores, which initcheck does not see), trimmed
#             to the grouped GEMM cases and the fused-adjoint layer
# (1) profiles of qwen3-30b-a3b (and seed-test's forward before and after
#     the z-loss change); (2) compute-sanitizer initcheck; (3) mixtral-8x7b
#     plain (gemm=auto: cuBLASLt) and generated, plain and replayed from
#     CUDA graphs; (4) dsv3-1gpu's profile and its generated layer replayed.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/profiles"
echo "=== (1) profiles $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/b/gpu PROFILE_SHAPES="qwen3-30b-a3b" PROFILE_ITERS=10 \
  RUNNER_TIMEOUT_S=120 timeout 150 bench/profile.sh /tmp/prof-q > "$OUT/profile-qwen3.log" 2>&1
echo "rc=$?"; cat /tmp/prof-q/share.md
for art in b b2; do
  timeout 60 "$RUNNER" .art/$art/gpu/seed-test --device gpu --profile --warmup 1 --iters 10 \
    --entry moe_layer_fwd > "$OUT/profiles/seed-test-fwd-$art.txt" 2>&1
  echo "seed-test fwd ($art) rc=$?: $(grep -E "z_loss|median" "$OUT/profiles/seed-test-fwd-$art.txt" | tr -s ' ' | tr '\n' ';')"
done
echo "=== (2) initcheck $(date +%T), $(left) s left"
MOE_ARTIFACTS_ROOT=.art/i BUILD_GPU=/tmp/rb SANITIZE_ARTIFACTS="gemm fused-adjoint-layer" \
  SANITIZE_TOOLS="initcheck" SANITIZE_TIMEOUT_S=100 timeout 150 scripts/gpu-sanitize.sh /tmp/san > "$OUT/initcheck.log" 2>&1
echo "rc=$?"; grep -A8 "^=== summary" "$OUT/initcheck.log"
echo "=== (3) mixtral-8x7b: cuBLASLt, generated, generated replayed $(date +%T), $(left) s left"
for v in "mixtral-8x7b plain" "mixtral-8x7b-generated plain" "mixtral-8x7b-generated graph"; do
  set -- $v; flags=(); [ "$2" = graph ] && flags=(--cuda-graph)
  timeout 100 "$RUNNER" .art/b/gpu/$1 --device gpu --warmup 3 --iters 20 "${flags[@]}" > "$OUT/$1-$2.txt" 2>&1
  echo "$1 $2 rc=$?: $(grep -E "^entry" "$OUT/$1-$2.txt" | sed 's/ on gpu.*: median/: median/' | tr '\n' ';')"
done
echo "=== (4) dsv3-1gpu: profile (gemm=auto), generated replayed $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/b/gpu PROFILE_SHAPES="dsv3-1gpu" PROFILE_ITERS=5 \
  RUNNER_TIMEOUT_S=$(( $(left) - 100 )) timeout $(( $(left) - 90 )) bench/profile.sh /tmp/prof-d > "$OUT/profile-dsv3.log" 2>&1
echo "rc=$?"; cat /tmp/prof-d/share.md 2>/dev/null
cp /tmp/prof-q/profile-*.txt /tmp/prof-d/profile-*.txt "$OUT/profiles/" 2>/dev/null
if [ "$(left)" -gt 60 ]; then
  timeout $(( $(left) - 5 )) "$RUNNER" .art/b/gpu/dsv3-1gpu-generated --device gpu --warmup 2 --iters 10 --cuda-graph \
    > "$OUT/dsv3-1gpu-generated-graph.txt" 2>&1
  echo "dsv3-1gpu-generated graph rc=$?: $(grep -E "^entry" "$OUT/dsv3-1gpu-generated-graph.txt" | sed 's/ on gpu.*: median/: median/' | tr '\n' ';')"
fi
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
