#!/usr/bin/env bash
# Device call 7 (one H200): weight gradients whose db rows are not whole
# 64-row tiles get generated kernels too (the last m-tile partial: TMA reads
# zeros past M, the tile's rows stored by threads). With run6's K tails,
# every grouped GEMM of the small example and of the adversarial layers is
# a generated kernel in the sanitizer build (.art/gs4: MOE_GEMM=generated
# MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false CHECK_ONLY=1).
#   1. gpu-e2e: the 30 grouped GEMM cases (new: wgrad_m_tail, Kd = 96;
#      wgrad_nk_m_tail, N = 32), small forward and backward, the NaN and
#      adversarial layers;
#   2. compute-sanitizer memcheck and initcheck on small, the adversarial
#      layers and the GEMM cases.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs4 \
  timeout 60 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run7.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS" "$OUT/e2e-run7.log" | head -30
grep -h -A2 "entry wgrad_.*m_tail" "$OUT"/e2e/gemm-gpu.log | head -6
echo "=== sanitize $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs4 SANITIZE_ARTIFACTS="small adversarial gemm" \
  SANITIZE_TOOLS="memcheck initcheck" SANITIZE_TIMEOUT_S=60 SANITIZE_JOBS=6 \
  timeout 75 scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/sanitize-run7.log" 2>&1
echo "gpu-sanitize rc=$?"
tail -10 "$OUT/sanitize-run7.log"
for f in "$OUT"/sanitize/*.log; do grep -m2 -E "Uninitialized|Invalid|Host API" "$f" | sed "s|^|$(basename $f): |"; done 2>/dev/null | head -20
tar czf "$OUT/sanitize-run7-logs.tgz" -C "$OUT" sanitize 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/sanitize"
echo "=== end $(date +%T)"
