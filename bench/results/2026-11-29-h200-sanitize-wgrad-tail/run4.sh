#!/usr/bin/env bash
# Device call 4 (one H200): scripts/gpu-sanitize.sh over everything.
# memcheck + initcheck on every example's check artifact, the GEMM cases,
# the NaN and adversarial layers and the cuBLASLt consumers (.art/gs4:
# MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
# CHECK_ONLY=1), 8 at a time; then racecheck + synccheck one at a time on
# the same artifacts built at MOE_GEMM_MAX_STAGES=2 (.art/gs5).
set -u
cd "$(dirname "$0")/../../.."
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs4 SANITIZE_SHARED_ROOT=.art/gs5 \
  SANITIZE_SHARED_ARTIFACTS="gemm small adversarial seed-test qwen3-30b-a3b mixtral-8x7b dsv3-1gpu" \
  SANITIZE_JOBS=8 SANITIZE_TIMEOUT_S=200 SANITIZE_LARGE_TIMEOUT_S=240 \
  timeout 585 scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/sanitize-run4.log" 2>&1
echo "gpu-sanitize rc=$?"
grep -E "^  [a-z0-9-]+ [a-z]+: rc=" "$OUT/sanitize-run4.log"
sed -n '/=== summary/,$p' "$OUT/sanitize-run4.log"
tar czf "$OUT/sanitize-run4-logs.tgz" -C "$OUT" sanitize 2>/dev/null
rm -rf "$OUT/sanitize"
