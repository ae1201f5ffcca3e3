#!/usr/bin/env bash
# Device call 2 (one H200).
#   .art/v4    fp8-weight-grad.mlir, the K-major zeroing as on main plus a warp
#              sync, and the FP8 stages released by each consumer's leader
#              after a warpgroup barrier (not by all 256 threads): at 0
#              (as many as fit), 2 and 3 stages
#   .art/f8m   qwen3-30b-a3b FP8 blockwise with weight inputs, main (abce7ad)
#   .art/f8v4  the same with v4
#   .art/t2    (run1) the tree's 2-stage sanitizer build: dsv3-1gpu racecheck
# 1. v4: racecheck at 2 stages, each build against the CPU.
# 2. FP8 layer profiles, main and v4 alternating, 2 rounds.
# 3. dsv3-1gpu racecheck (t2: thread-stored epilogue) in the time left.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((585 - (SECONDS - START))); [ "$l" -gt "$1" ] && l=$1; [ "$l" -lt 10 ] && l=10; echo "$l"; }
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
echo "=== v4 racecheck $(date +%T)"
CUDA_LAUNCH_BLOCKING=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --print-limit 10 \
  "$RUNNER" .art/v4/fp8wgrad/kmajor-gpu-s2 --inputs .art/v4/fp8wgrad/kmajor-in --device gpu --iters 1 --warmup 0 \
  > "$OUT/logs/v4-racecheck.log" 2>&1
echo "v4 racecheck rc=$?"; grep -E "RACECHECK SUMMARY|Race reported|Error:" "$OUT/logs/v4-racecheck.log" | head -8
for s in s0 s2 s3; do
  timeout 120 "$RUNNER" .art/v4/fp8wgrad/kmajor-gpu-$s --inputs .art/v4/fp8wgrad/kmajor-in --device gpu --iters 1 --warmup 0 \
    --check-against .art/v4/fp8wgrad/kmajor-cpu > "$OUT/logs/v4-check-$s.log" 2>&1
  echo "v4 $s check rc=$? $(grep -E '^check:' "$OUT/logs/v4-check-$s.log" | tail -1)"
done
echo "=== FP8 qwen3-30b-a3b profiles $(date +%T)"
for round in 1 2; do
  for v in f8m f8v4; do
    timeout "$(left 90)" "$RUNNER" .art/$v/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
      --profile > "$OUT/logs/profile-$v-r$round.txt" 2>&1
    echo "$v round $round rc=$?: $(grep -E '^entry' "$OUT/logs/profile-$v-r$round.txt")"
    grep -E "grouped_weight_grad" "$OUT/logs/profile-$v-r$round.txt" | sed 's/^/    /'
  done
done
echo "=== dsv3-1gpu racecheck (.art/t2), $(left 600) s $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/t2 SANITIZE_TOOLS="racecheck" SANITIZE_ARTIFACTS="dsv3-1gpu" \
  SANITIZE_SHARED_ARTIFACTS="dsv3-1gpu" SANITIZE_LARGE_RACECHECK_TIMEOUT_S="$(left 600)" \
  scripts/gpu-sanitize.sh "$OUT/logs/dsv3" > "$OUT/sanitize-dsv3.log" 2>&1
echo "dsv3 racecheck rc=$? $(date +%T)"
sed -n '/=== summary/,$p' "$OUT/sanitize-dsv3.log"
grep -v "mgpuMemFree\|launch skipped\|mgpuEventDestroy\|mgpuMemAlloc\|mgpuModuleGetFunction\|cuTensorMapEncodeTiled" \
  "$OUT/logs/dsv3/dsv3-1gpu.racecheck.log" | tail -8
tar czf "$OUT/logs-run2.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
