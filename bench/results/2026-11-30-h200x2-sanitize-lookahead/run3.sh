#!/usr/bin/env bash
# Device call 3 (two H200s). The tree (ee019c2) with the permute / combine_grad row
# selection by a warp per 32 rows, the batched scans (996d6ee) and the
# batched pair loads of the permute's count and rank passes (ee019c2).
# GPU 0: (1) compute-sanitizer memcheck, initcheck and synccheck on the
#        sanitizer build .art/s4 (as run1's .art/s3) of the examples that run
#        those kernels, the NaN and adversarial layers (unrouted rows);
#        (2) dsv3-1gpu racecheck with CUDA_LAUNCH_BLOCKING=1, to name the
#        launch that fails under racecheck (run1, run2).
# GPU 1: (1) scripts/gpu-e2e.sh on the tree's default artifacts (.art/d2);
#        (2) forward and backward of qwen3-30b-a3b at full size, the tree
#        (.art/d2/gpu) against main before these commits (.art/ga8/gpu),
#        moe-runner --profile, median of 20, alternating, 2 rounds;
#        (3) bench/layer.sh qwen3-30b-a3b in the time left.
set -u
cd "$(dirname "$0")/../../.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((560 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== start $(date +%T)"
(
  export CUDA_VISIBLE_DEVICES=0
  BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s4 SANITIZE_TOOLS="memcheck initcheck synccheck" \
    SANITIZE_ARTIFACTS="small seed-test qwen3-30b-a3b fused-adjoint-layer mixtral-8x7b nan adversarial" \
    SANITIZE_SHARED_ARTIFACTS="small seed-test qwen3-30b-a3b fused-adjoint-layer mixtral-8x7b nan adversarial" \
    SANITIZE_TIMEOUT_S=120 timeout 330 scripts/gpu-sanitize.sh "$OUT/gpu0" > "$OUT/sanitize-gpu0-run3.log" 2>&1
  echo "gpu0 sanitizers rc=$? $(date +%T)"
  l=$(left 240)
  if [ "$l" -ge 90 ]; then
    CUDA_LAUNCH_BLOCKING=1 timeout --kill-after=20 "$((l - 20))" /usr/local/cuda/bin/compute-sanitizer \
      --tool racecheck --print-limit 20 "$RUNNER" .art/s2/check/gpu/dsv3-1gpu --entry moe_layer_bwd \
      --device gpu --iters 1 --warmup 0 > "$OUT/dsv3-racecheck-blocking-run3.log" 2>&1
    echo "dsv3 racecheck (blocking launches) rc=$? $(date +%T)"
  fi
) > "$OUT/gpu0-run3.log" 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1
  echo "=== (1) gpu-e2e $(date +%T)"
  BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/d2 timeout "$(left 320)" scripts/gpu-e2e.sh "$OUT/e2e" \
    > "$OUT/e2e-run3.log" 2>&1
  echo "gpu-e2e rc=$?"
  grep -E "^check:|FAIL|^===|ALL" "$OUT/e2e-run3.log" | head -60
  echo "=== (2) profiles, tree vs main $(date +%T)"
  for round in 1 2; do
    for entry in moe_layer_fwd moe_layer_bwd; do
      for variant in tree main; do
        art=.art/d2/gpu/qwen3-30b-a3b
        [ $variant = main ] && art=.art/ga8/gpu/qwen3-30b-a3b
        f="$OUT/profile-qwen3-$entry-$variant-r$round.txt"
        timeout "$(left 60)" "$RUNNER" "$art" --device gpu --entry $entry --iters 20 --warmup 3 --profile > "$f" 2>&1
        echo "$entry $variant round $round rc=$?: $(grep -m1 'median' "$f")"
        grep -E "_(4|5|6|8|12)_permute|_8_combine_grad" "$f"
      done
    done
  done
  if [ "$(left 200)" -ge 140 ]; then
    echo "=== (3) layer.sh qwen3-30b-a3b $(date +%T)"
    MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/d2/gpu BENCH_SHAPES=qwen3-30b-a3b SKIP_JAX=1 BENCH_REPLAY=0 \
      BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
      timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
    echo "layer.sh rc=$?"
    cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
    cp "$OUT/layer/table.txt" "$OUT/layer-table-run3.txt" 2>/dev/null
  else
    echo "skipped (3): no time left"
  fi
) > "$OUT/gpu1-run3.log" 2>&1 &
wait
cat "$OUT/gpu1-run3.log"
echo "--- gpu0"; cat "$OUT/gpu0-run3.log"
grep -E "rc=" "$OUT/sanitize-gpu0-run3.log"; sed -n '/=== summary/,$p' "$OUT/sanitize-gpu0-run3.log"
grep -v "mgpuMemFree\|launch skipped\|mgpuEventDestroy" "$OUT/dsv3-racecheck-blocking-run3.log" 2>/dev/null | head -30
mkdir -p "$OUT/profiles" && mv "$OUT"/profile-*.txt "$OUT/profiles/" 2>/dev/null
tar czf "$OUT/logs-run3.tgz" -C "$OUT" gpu0 e2e e2e-run3.log layer layer.log profiles sanitize-gpu0-run3.log \
  dsv3-racecheck-blocking-run3.log 2>/dev/null
rm -rf "$OUT/gpu0" "$OUT/e2e" "$OUT/layer" "$OUT/layer.log" "$OUT/build.log" "$OUT/profiles" "$OUT"/e2e-run3.log \
  "$OUT"/sanitize-gpu0-run3.log "$OUT"/dsv3-racecheck-blocking-run3.log
echo "=== end $(date +%T)"
