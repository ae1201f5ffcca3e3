#!/usr/bin/env bash
# Device call 4 (one H200): dsv3-1gpu's racecheck (timed out at 200 s in
# run3) alone on the sanitizer side, beside the FP8 layer checks that ran
# out of time in run1 (plain moe-runner processes, CPU-bound in their
# reference): blockwise seed-test, mixtral-8x7b, qwen3-30b-a3b; delayed
# seed-test, qwen3-30b-a3b; the runner built from this tree (fp8 tolerance
# 3e-2, tools/moe-runner/Check.h).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== start $(date +%T)"
( BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs5 SANITIZE_TOOLS=racecheck \
  SANITIZE_ARTIFACTS="dsv3-1gpu" SANITIZE_SHARED_ARTIFACTS="dsv3-1gpu" SANITIZE_LARGE_TIMEOUT_S=440 \
  timeout 460 scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/racecheck-dsv3-run4.log" 2>&1
  echo "dsv3 racecheck rc=$?" > "$OUT/racecheck.rc" ) &
p0=$!
( E2E_EXAMPLES="seed-test mixtral-8x7b qwen3-30b-a3b" BUILD_GPU=/tmp/rb \
  MOE_ARTIFACTS_ROOT=.art/f8b E2E_TIMEOUT_S=440 timeout 450 scripts/gpu-e2e.sh "$OUT/e2e-blockwise" \
  > "$OUT/e2e-blockwise-run4.log" 2>&1; echo "blockwise rc=$?" > "$OUT/e2e-blockwise.rc" ) &
p1=$!
( E2E_EXAMPLES="seed-test qwen3-30b-a3b" BUILD_GPU=/tmp/rb \
  MOE_ARTIFACTS_ROOT=.art/f8d E2E_TIMEOUT_S=440 timeout 450 scripts/gpu-e2e.sh "$OUT/e2e-delayed" \
  > "$OUT/e2e-delayed-run4.log" 2>&1; echo "delayed rc=$?" > "$OUT/e2e-delayed.rc" ) &
p2=$!
wait $p0 $p1 $p2
cat "$OUT/racecheck.rc" "$OUT/e2e-blockwise.rc" "$OUT/e2e-delayed.rc"
sed -n '/=== summary/,$p' "$OUT/racecheck-dsv3-run4.log"
for r in blockwise delayed; do
  echo "--- $r"; grep -E "^---|FAIL|near-ties|error" "$OUT/e2e-$r-run4.log" | head -30
done
tar czf "$OUT/logs-run4.tgz" -C "$OUT" sanitize e2e-blockwise e2e-delayed
rm -rf "$OUT/build.log" "$OUT/sanitize" "$OUT/e2e-blockwise" "$OUT/e2e-delayed"
echo "=== end $(date +%T)"
