#!/usr/bin/env bash
# Device call 3 (one H200): (1) synccheck on the GEMM cases compiled without
# setmaxnreg (.art/gx: 2 stages, threads store; a local build with both
# SetMaxRegisterOps removed); (2) racecheck on every GEMM case (.art/gs5,
# 2 stages), alone on the GPU; (3) memcheck on every GEMM case (.art/gs4),
# alone three times, then beside four other sanitizer processes, to see
# whether run1's "Unknown Error" in wgrad_nk_m_tail follows concurrency.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
CS=/usr/local/cuda/bin/compute-sanitizer
[ -x "$CS" ] || CS=/usr/local/cuda/compute-sanitizer/compute-sanitizer
one() { # label art tool [moe-runner args...]
  local label=$1 art=$2 tool=$3; shift 3
  timeout 150 "$CS" --tool "$tool" --error-exitcode 86 --print-limit 10 \
    "$RUNNER" .art/$art/gemm/gpu --inputs .art/$art/gemm/in "$@" \
    --device gpu --iters 1 --warmup 0 > "$OUT/$label.log" 2>&1
  local rc=$?
  printf '%-24s rc=%-3s entries=%-3s %s | %s\n' "$label" "$rc" "$(grep -c '^entry ' "$OUT/$label.log")" \
    "$(grep -oE '(ERROR|RACECHECK) SUMMARY: .*' "$OUT/$label.log" | tail -1)" \
    "$(grep -m1 -oE "LAUNCH_FAILED|Unknown Error|Invalid [a-z_ ]+|Barrier error[^.]*|Race reported[^.]*|entry '[a-z_0-9]+'" "$OUT/$label.log" | tr '\n' ' ')"
}
echo "=== synccheck without setmaxnreg $(date +%T)"
one sync-nosetmaxnreg-balanced gx synccheck --entry balanced
one sync-nosetmaxnreg-all gx synccheck
echo "=== racecheck, every GEMM case alone (gs5) $(date +%T)"
one race-all gs5 racecheck
echo "=== memcheck, every GEMM case alone (gs4) x3 $(date +%T)"
for i in 1 2 3; do one mem-alone-$i gs4 memcheck; done
echo "=== memcheck beside 4 other sanitizer runs $(date +%T)"
for i in 1 2 3 4; do
  timeout 150 "$CS" --tool initcheck "$RUNNER" .art/gs4/check/gpu/seed-test --device gpu --iters 1 --warmup 0 > "$OUT/bg-$i.log" 2>&1 &
done
one mem-crowded gs4 memcheck
wait
echo "=== end $(date +%T)"
