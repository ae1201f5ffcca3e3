#!/usr/bin/env bash
# Device call 2 (one H200). Compiler: cdb32b0 plus pingpong tiles for
# up_weight pairs (GroupedGemmConfig::pingpong). Artifacts:
#   .art/c/gemm  test/gpu/Inputs/generated-grouped-gemm.mlir (with the
#                up_weight entries; up_weight_pingpong and up_weight_nk run
#                pingpong tiles now), --gemm=generated, and on 8 CTAs (gpu-c8)
#   .art/p/gpu/E-residuals  full shapes (moe-generate-vjp recompute=none),
#                moe-fuse gate-up-weights-residuals=true first, gemm=auto;
#                E-unfused from run1 (same kernels: the change touches
#                up_weight pairs only)
#   .art/s/gemm, .art/r/gemm  the sanitizer builds of the GEMM cases
#                (max-stages 3, no TMA store, no cuBLASLt; racecheck: max-stages
#                2, racecheck layout)
#   .art/p/gpu/dsv3-1gpu-inference[-unfused]  examples/dsv3-1gpu.mlir as is
# (1) the GEMM cases against the CPU; (2) the training forward with the
# residuals as extra destinations (pingpong) against unfused, alternating,
# two rounds; (3) compute-sanitizer on the GEMM cases; (4) dsv3-1gpu's
# inference layer fused against unfused.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases vs CPU $(date +%T)"
for v in gpu gpu-c8; do
  timeout 60 "$RUNNER" .art/c/gemm/$v --device gpu --inputs .art/c/gemm/in --iters 1 --warmup 0 \
    --check-against .art/c/gemm/cpu > "$OUT/gemm-$v.log" 2>&1
  echo "gemm $v rc=$?: $(grep -E "^check:" "$OUT/gemm-$v.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
  grep -E "entry up_weight|FAIL" -A3 "$OUT/gemm-$v.log" | grep -E "entry|result|FAIL" | head -12
done
echo "=== (2) training forward: residuals fused (pingpong) vs unfused $(date +%T), $(left) s left"
for round in 1 2; do
  for shape in qwen3-30b-a3b seed-test; do
    for v in -residuals -unfused; do
      timeout 60 "$RUNNER" .art/p/gpu/$shape$v --device gpu --warmup 3 --iters 20 > "$OUT/$shape$v-$round.txt" 2>&1
      echo "$shape$v round $round rc=$?: $(grep -E "^entry" "$OUT/$shape$v-$round.txt" | sed 's/ on gpu.*: median/: median/' | tr '\n' ';')"
    done
  done
done
timeout 60 "$RUNNER" .art/p/gpu/qwen3-30b-a3b-residuals --device gpu --profile --warmup 1 --iters 10 \
  --entry moe_layer_fwd > "$OUT/profile-qwen3-residuals-fwd.txt" 2>&1
grep -E "grouped_matmul|glu|median" "$OUT/profile-qwen3-residuals-fwd.txt"
echo "=== (3) compute-sanitizer $(date +%T), $(left) s left"
MOE_ARTIFACTS_ROOT=.art/s SANITIZE_SHARED_ROOT=.art/r BUILD_GPU=/tmp/rb \
  SANITIZE_ARTIFACTS="gemm" SANITIZE_TOOLS="memcheck initcheck racecheck" \
  SANITIZE_SHARED_ARTIFACTS="gemm" SANITIZE_TIMEOUT_S=100 \
  timeout 200 scripts/gpu-sanitize.sh /tmp/san > "$OUT/sanitize.log" 2>&1
echo "rc=$?"; tail -8 "$OUT/sanitize.log"
echo "=== (4) dsv3-1gpu inference, fused vs unfused $(date +%T), $(left) s left"
for v in "" -unfused; do
  [ "$(left)" -gt 60 ] || break
  timeout $(( $(left) - 30 )) "$RUNNER" .art/p/gpu/dsv3-1gpu-inference$v --device gpu --warmup 3 --iters 20 \
    > "$OUT/dsv3-inference$v.txt" 2>&1
  echo "dsv3-1gpu-inference$v rc=$?: $(grep -E "^entry" "$OUT/dsv3-inference$v.txt" | sed 's/ on gpu.*: median/: median/' | tr '\n' ';')"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
