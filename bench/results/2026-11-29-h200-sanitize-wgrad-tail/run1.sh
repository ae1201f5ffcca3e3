#!/usr/bin/env bash
# Device call 1 (one H200), fifteenth session.
#  1. gpu-e2e on .art/gs4 (MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3
#     MOE_GEMM_TMA_STORE=false CHECK_ONLY=1, with weight gradients whose db
#     rows are not whole 64-row tiles as generated kernels): the 30 grouped
#     GEMM cases, small forward and backward, the NaN and adversarial layers.
#  2. memcheck + initcheck on .art/gs4: small, seed-test, qwen3-30b-a3b,
#     gemm, nan, adversarial, cublaslt.
#  3. racecheck + synccheck on .art/gs5 (the same at MOE_GEMM_MAX_STAGES=2):
#     gemm, small, adversarial, seed-test, qwen3-30b-a3b.
#  4. synccheck triage: the tool's options, synccheck on an artifact with
#     no generated GEMM (cublaslt), and on the first GEMM case alone with
#     device backtraces.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
CS=/usr/local/cuda/bin/compute-sanitizer
[ -x "$CS" ] || CS=/usr/local/cuda/compute-sanitizer/compute-sanitizer
"$CS" --version > "$OUT/cs-help.txt" 2>&1; "$CS" --help >> "$OUT/cs-help.txt" 2>&1
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs4 \
  timeout 90 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run1.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS" "$OUT/e2e-run1.log" | head -40
grep -h -A3 "entry wgrad_.*m_tail" "$OUT"/e2e/gemm-gpu.log | head -8
echo "=== memcheck/initcheck on gs4 $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs4 \
  SANITIZE_ARTIFACTS="small adversarial gemm nan cublaslt seed-test qwen3-30b-a3b" \
  SANITIZE_TOOLS="memcheck initcheck" SANITIZE_TIMEOUT_S=150 SANITIZE_JOBS=7 \
  timeout 200 scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/sanitize-run1.log" 2>&1
echo "gpu-sanitize rc=$?"
sed -n '/=== summary/,$p' "$OUT/sanitize-run1.log"
echo "=== racecheck/synccheck on gs5 (2 stages) $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs5 \
  SANITIZE_ARTIFACTS="gemm small adversarial seed-test qwen3-30b-a3b" \
  SANITIZE_SHARED_ARTIFACTS="gemm small adversarial seed-test qwen3-30b-a3b" \
  SANITIZE_TOOLS="racecheck synccheck" SANITIZE_TIMEOUT_S=150 SANITIZE_JOBS=5 \
  timeout 200 scripts/gpu-sanitize.sh "$OUT/shared" > "$OUT/shared-run1.log" 2>&1
echo "gpu-sanitize rc=$?"
sed -n '/=== summary/,$p' "$OUT/shared-run1.log"
echo "=== synccheck triage $(date +%T)"
timeout 60 "$CS" --tool synccheck "$RUNNER" .art/gs5/cublaslt/gpu --device gpu --iters 1 --warmup 0 > "$OUT/synccheck-cublaslt.log" 2>&1
echo "synccheck cublaslt rc=$?"; tail -4 "$OUT/synccheck-cublaslt.log"
timeout 60 "$CS" --tool synccheck --show-backtrace device --print-level info --launch-count 1 \
  "$RUNNER" .art/gs5/gemm/gpu --inputs .art/gs5/gemm/in --entry balanced --device gpu --iters 1 --warmup 0 > "$OUT/synccheck-one.log" 2>&1
echo "synccheck one GEMM rc=$?"; head -30 "$OUT/synccheck-one.log"
for f in "$OUT"/sanitize/*.log "$OUT"/shared/*.log; do grep -m2 -E "Uninitialized|Invalid|Race|Barrier|Host API|LAUNCH" "$f" | sed "s|^|$(basename $f): |"; done 2>/dev/null | head -30
tar czf "$OUT/sanitize-run1-logs.tgz" -C "$OUT" sanitize shared 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/sanitize" "$OUT/shared"
echo "=== end $(date +%T)"
