#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts compiled on the MLIR machine from this
# tree (moe-fuse gate-up-weights: gate and up weights as one generated
# grouped GEMM whose epilogue writes h and the two products):
#   .art/c    CHECK_ONLY=1 scripts/gpu-artifacts.sh (check layers of every
#             example, the -generated ones with the fusion, the grouped GEMM
#             cases with test/gpu's up_weight entries, NaN, adversarial)
#   .art/p    full shapes, moe-generate-vjp recompute=none, gemm=auto:
#             E (fused, the default) and E-unfused (--gemm-gate-up-weights=false)
# (1) gpu-e2e on the grouped GEMM cases and the check layers (not dsv3-1gpu,
#     whose backward CPU reference needs minutes; not mixtral-8x7b, which
#     gemm=auto leaves to cuBLASLt, unfused); (2) fused against unfused,
#     alternating, two rounds, median of 20 each; (3) profiles of the fused
#     layers (bench/profile.sh: GEMM / non-GEMM shares).
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.sm --format=csv,noheader
echo "=== (1) gpu-e2e $(date +%T)"
MOE_ARTIFACTS_ROOT=.art/c BUILD_GPU=/tmp/rb E2E_TIMEOUT_S=150 \
  E2E_EXAMPLES="small small-generated seed-test seed-test-generated qwen3-30b-a3b qwen3-30b-a3b-generated fused-adjoint-layer" \
  timeout 280 scripts/gpu-e2e.sh /tmp/e2e > "$OUT/e2e.log" 2>&1
echo "rc=$?"; grep -E "FAIL|rc=|ALL|SOME|up_weight|entry .* on gpu" "$OUT/e2e.log" | tail -40
echo "=== (2) fused vs unfused $(date +%T), $(left) s left"
for round in 1 2; do
  for shape in qwen3-30b-a3b seed-test; do
    for v in "" -unfused; do
      [ "$(left)" -gt 150 ] || break 3
      timeout 80 "$RUNNER" .art/p/gpu/$shape$v --device gpu --warmup 3 --iters 20 > "$OUT/$shape$v-$round.txt" 2>&1
      echo "$shape$v round $round rc=$?: $(grep -E "^entry" "$OUT/$shape$v-$round.txt" | sed 's/ on gpu.*: median/: median/' | tr '\n' ';')"
    done
  done
done
echo "=== (3) profiles $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/p/gpu PROFILE_SHAPES="qwen3-30b-a3b seed-test" PROFILE_ITERS=10 \
  RUNNER_TIMEOUT_S=60 timeout $(( $(left) - 5 )) bench/profile.sh "$OUT/profiles" > "$OUT/profile.log" 2>&1
echo "rc=$?"; cat "$OUT/profiles/share.md" 2>/dev/null
rm -f "$OUT/build.log"; gzip -f "$OUT/e2e.log" 2>/dev/null
echo "=== end $(date +%T)"
