#!/usr/bin/env bash
# Device call 2 (one H200): the FP8 blockwise kernels after run1's profile.
# .art/w1: main 32095ed (run1's); .art/w2: the change (weight gradients read
# each k-step's scales from the stage, copied there by the producer; grouped
# matmuls load them one k-step ahead). build.sh made both.
# (1) correctness of the new kernels against the CPU: test/gpu's FP8 weight
#     gradient cases (kw) and FP8 grouped matmuls / placement's weight
#     gradients (kf), as test/gpu compiles them;
# (2) the FP8 GEMMs alone, w1 against w2, mixtral-8x7b and qwen3-30b-a3b,
#     balanced and skewed;
# (3) compute-sanitizer memcheck on the new kw cases, racecheck (hazard
#     reports) on the persistent ones at 2 stages, old and new;
# (4) the FP8 weight-input layers (w2/fw) profiled at full size, and their
#     check layers against the CPU.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer
N=.art/w2
echo "=== (1) checks $(date +%T)"
check() { # label artifact inputs cpu
  timeout 120 "$RUNNER" "$2" --device gpu --inputs "$3" --iters 1 --warmup 0 --check-against "$4" \
    > "$OUT/check-$1.log" 2>&1
  echo "--- $1 rc=$? $(grep -c PASS "$OUT/check-$1.log") PASS, $(grep -c FAIL "$OUT/check-$1.log") FAIL"
  grep -E "FAIL|rel_l2" "$OUT/check-$1.log" | head -12
}
check kw $N/kw/gpu $N/kw/in $N/kw/cpu
check kw-s2 $N/kw/gpu-s2 $N/kw/in $N/kw/cpu
check mm-generated $N/kf/mm-generated $N/kf/mm-in $N/kf/mm-cpu
check mm-gpu $N/kf/mm-gpu $N/kf/mm-in $N/kf/mm-cpu
check wg-generated $N/kf/wg-generated $N/kf/wg-in $N/kf/wg-cpu
echo "=== (2) FP8 GEMMs old vs new $(date +%T)"
timeout 200 python3 bench/results/2026-11-29-h200-fp8-wgrad/fp8_gemm_times.py --runner "$RUNNER" \
  --out /tmp/fp8t --shapes mixtral-8x7b,qwen3-30b-a3b old=.art/w1/gg/fp8b new=$N/gg/fp8b \
  > "$OUT/fp8-gemms-run2.txt" 2>&1
echo "rc=$?"; cat "$OUT/fp8-gemms-run2.txt"
echo "=== (3) sanitizers $(date +%T)"
timeout 90 "$SAN" --tool memcheck --error-exitcode 86 "$RUNNER" $N/kw/gpu --device gpu \
  --inputs $N/kw/in --iters 1 --warmup 0 > "$OUT/memcheck-kw.log" 2>&1
echo "memcheck kw rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck-kw.log")"
for v in old:.art/w1/kw/gpu new:$N/kw/gpu-s2; do
  timeout 90 "$SAN" --tool racecheck --racecheck-report hazard --print-limit 20 --error-exitcode 86 \
    "$RUNNER" ${v#*:} --device gpu --inputs $N/kw/in --entry wg_bw_persistent_ragged \
    --entry wg_bw_persistent_aligned --iters 1 --warmup 0 > "$OUT/racecheck-${v%%:*}.log" 2>&1
  echo "racecheck ${v%%:*} rc=$? $(grep -E 'RACECHECK SUMMARY' "$OUT/racecheck-${v%%:*}.log")"
  grep -E "Race reported|Write access|Read access" "$OUT/racecheck-${v%%:*}.log" | sort | uniq -c | head -8
done
echo "=== (4) layers $(date +%T)"
for l in mixtral-8x7b qwen3-30b-a3b; do
  timeout 80 "$RUNNER" $N/fw/gpu/$l --device gpu --iters 20 --warmup 3 --profile > "$OUT/profile-$l-fp8w.txt" 2>&1
  echo "--- $l rc=$?"; grep -E "^entry .* median|grouped|transpose" "$OUT/profile-$l-fp8w.txt" | head -40
done
( E2E_EXAMPLES="qwen3-30b-a3b mixtral-8x7b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$N/fw \
  E2E_TIMEOUT_S=150 timeout 170 scripts/gpu-e2e.sh "$OUT/e2e-fw" > "$OUT/e2e-fw-run2.log" 2>&1
  echo "e2e rc=$?" )
grep -E "^---|FAIL|^check:|rel_l2.*(out|d_)|ALL|rc=" "$OUT/e2e-fw-run2.log" | head -40
tar czf "$OUT/logs-run2.tgz" -C "$OUT" $(cd "$OUT" && ls *.log e2e-fw 2>/dev/null)
rm -rf "$OUT/build.log" "$OUT"/check-*.log "$OUT"/memcheck-*.log "$OUT"/racecheck-*.log "$OUT/e2e-fw"
echo "=== end $(date +%T)"
