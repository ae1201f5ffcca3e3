#!/usr/bin/env bash
# Device call 6 (one H200): grouped matmuls with K not a multiple of 64 as
# generated kernels (a last, partial k-step; the rows past K of an N-major
# B zeroed in shared memory). .art/gs3: scripts/gpu-artifacts.sh with
# MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
# CHECK_ONLY=1 (the sanitizer configuration), so that the small example's
# and the adversarial layers' K = 16, 32 and 48 grouped matmuls are
# generated kernels whose stores initcheck sees.
#   1. gpu-e2e: the grouped GEMM cases (new: k_tail_kn with NaN weights in
#      the empty group after a partial step, k_tail_nk with K = 32), the
#      small example forward and backward, the NaN and adversarial layers;
#   2. compute-sanitizer memcheck and initcheck on small and the
#      adversarial layers.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs3 \
  timeout 100 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run6.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|k_tail" "$OUT/e2e-run6.log" | head -30
grep -h -A2 "entry k_tail" "$OUT"/e2e/gemm-*.log | head -12
echo "=== sanitize $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs3 SANITIZE_ARTIFACTS="small adversarial" \
  SANITIZE_TOOLS="memcheck initcheck" SANITIZE_TIMEOUT_S=110 \
  timeout 130 scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/sanitize-run6.log" 2>&1
echo "gpu-sanitize rc=$?"
tail -12 "$OUT/sanitize-run6.log"
for f in "$OUT"/sanitize/*.log; do grep -m3 -E "Uninitialized|Invalid|ERROR SUMMARY" "$f" | sed "s|^|$(basename $f): |"; done 2>/dev/null | head -30
tar czf "$OUT/sanitize-run6-logs.tgz" -C "$OUT" sanitize 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/sanitize"
echo "=== end $(date +%T)"
