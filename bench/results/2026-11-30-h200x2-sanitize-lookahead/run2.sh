#!/usr/bin/env bash
# Device call 2 (two H200s).
# GPU 0: dsv3-1gpu memcheck and initcheck (.art/s3: the sanitizer build of
#        run1), then racecheck again (.art/s2) in the time left: in run1 it
#        failed at 1.8 s ("unspecified launch failure" before the forward's
#        first kernel).
# GPU 1: (0) the GEMM cases' initcheck again, their router matmul now the
#        compiler's kernel (gpu-artifacts.sh passes --dense-matmuls to them:
#        run1 reported the reads of cuBLASLt's TMA-stored router product);
#        (1) scripts/gpu-e2e.sh on the tree's default artifacts (.art/d1:
#        scripts/gpu-artifacts.sh, every example's check layer forward and
#        backward against the CPU, the *-generated layers with the fused
#        activation adjoint, the fused-adjoint layer, GEMM cases, FP8
#        wgrads, NaN, adversarial);
#        (2) full-size backward, the epilogue look-ahead (.art/d1/gpu) against
#        main's kernel (.art/ga8/gpu, compiled last session from the same
#        sources), moe-runner --profile, median of 20, alternating, 3 rounds;
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
  CUDA_VISIBLE_DEVICES=0 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s3 \
    SANITIZE_TOOLS="memcheck initcheck" SANITIZE_ARTIFACTS="dsv3-1gpu" SANITIZE_LARGE_TIMEOUT_S=200 \
    timeout 420 scripts/gpu-sanitize.sh "$OUT/gpu0" > "$OUT/sanitize-gpu0-run2.log" 2>&1
  echo "gpu0 rc=$? $(date +%T)"
  CUDA_VISIBLE_DEVICES=0 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s2 \
    SANITIZE_TOOLS="racecheck" SANITIZE_ARTIFACTS="dsv3-1gpu" SANITIZE_SHARED_ARTIFACTS="dsv3-1gpu" \
    SANITIZE_LARGE_RACECHECK_TIMEOUT_S=$(( $(left 420) - 25 )) \
    timeout "$(left 420)" scripts/gpu-sanitize.sh "$OUT/gpu0r" > "$OUT/sanitize-gpu0r-run2.log" 2>&1
  echo "gpu0 racecheck rc=$? $(date +%T)"
) &
(
  export CUDA_VISIBLE_DEVICES=1
  echo "=== (0) GEMM cases, initcheck $(date +%T)"
  BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s3 SANITIZE_TOOLS=initcheck SANITIZE_ARTIFACTS=gemm \
    timeout 120 scripts/gpu-sanitize.sh "$OUT/gpu1" > "$OUT/sanitize-gpu1-run2.log" 2>&1
  echo "gemm initcheck rc=$?"; sed -n '/=== summary/,$p' "$OUT/sanitize-gpu1-run2.log"
  echo "=== (1) gpu-e2e $(date +%T)"
  BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/d1 timeout "$(left 320)" scripts/gpu-e2e.sh "$OUT/e2e" \
    > "$OUT/e2e-run2.log" 2>&1
  echo "gpu-e2e rc=$?"
  grep -E "^check:|FAIL|^===|ALL" "$OUT/e2e-run2.log" | head -60
  echo "=== (2) backward profiles, look-ahead vs main $(date +%T)"
  for round in 1 2 3; do
    for shape in qwen3-30b-a3b seed-test; do
      for variant in ahead main; do
        art=.art/d1/gpu/$shape
        [ $variant = main ] && art=.art/ga8/gpu/$shape
        timeout "$(left 60)" "$RUNNER" "$art" --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
          --profile > "$OUT/profile-$shape-$variant-r$round.txt" 2>&1
        echo "$shape $variant round $round rc=$?: $(grep -m1 'median' "$OUT/profile-$shape-$variant-r$round.txt")"
        grep -E "_9_grouped_matmul" "$OUT/profile-$shape-$variant-r$round.txt"
      done
    done
  done
  if [ "$(left 200)" -ge 140 ]; then
    echo "=== (3) layer.sh qwen3-30b-a3b $(date +%T)"
    MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/d1/gpu BENCH_SHAPES=qwen3-30b-a3b SKIP_JAX=1 BENCH_REPLAY=0 \
      BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
      timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
    echo "layer.sh rc=$?"
    cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
    cp "$OUT/layer/table.txt" "$OUT/layer-table-run2.txt" 2>/dev/null
  else
    echo "skipped (3): no time left"
  fi
) > "$OUT/gpu1-run2.log" 2>&1 &
wait
cat "$OUT/gpu1-run2.log"
for f in gpu0 gpu0r; do
  echo "--- $f"; grep -E "rc=" "$OUT/sanitize-$f-run2.log"; sed -n '/=== summary/,$p' "$OUT/sanitize-$f-run2.log"
done
tar czf "$OUT/logs-run2.tgz" -C "$OUT" gpu0 gpu0r gpu1 e2e e2e-run2.log layer layer.log 2>/dev/null
rm -rf "$OUT/gpu0" "$OUT/gpu0r" "$OUT/gpu1" "$OUT/e2e" "$OUT/layer" "$OUT/layer.log" "$OUT/build.log" "$OUT"/profile-seed-test-*
echo "=== end $(date +%T)"
