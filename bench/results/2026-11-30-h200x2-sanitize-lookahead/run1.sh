#!/usr/bin/env bash
# Device call 1 (two H200s, one sanitizer process a GPU). scripts/gpu-sanitize.sh
# over sanitizer builds of the tree (main + the epilogue look-ahead), no
# cuBLASLt kernel in the examples:
#   .art/s3  MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
#            MOE_DENSE_MATMULS=false CHECK_ONLY=1 scripts/gpu-artifacts.sh
#   .art/s2  the same at MOE_GEMM_MAX_STAGES=2 (racecheck, synccheck)
# GPU 0: dsv3-1gpu racecheck (its backward did not finish in 190 s before).
# GPU 1: memcheck and initcheck of every other artifact, then racecheck and
#        synccheck of every artifact but dsv3-1gpu, one run at a time; then,
#        in the time left, bench/layer.sh seed-test and mixtral-8x7b on the
#        tree's full-size artifacts (.art/d1/gpu: scripts/gpu-artifacts.sh).
set -u
cd "$(dirname "$0")/../../.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
EXAMPLES="small seed-test qwen3-30b-a3b fused-adjoint-layer mixtral-8x7b"
OTHERS="gemm fp8wgrad nan adversarial"
echo "=== start $(date +%T)"
(
  CUDA_VISIBLE_DEVICES=0 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s2 \
    SANITIZE_TOOLS="racecheck" SANITIZE_ARTIFACTS="dsv3-1gpu" \
    SANITIZE_SHARED_ARTIFACTS="dsv3-1gpu" SANITIZE_LARGE_RACECHECK_TIMEOUT_S=520 \
    scripts/gpu-sanitize.sh "$OUT/gpu0" > "$OUT/sanitize-gpu0-run1.log" 2>&1
  echo "gpu0 rc=$? $(date +%T)"
) &
(
  CUDA_VISIBLE_DEVICES=1 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s3 \
    SANITIZE_TOOLS="memcheck initcheck" SANITIZE_ARTIFACTS="$EXAMPLES $OTHERS" \
    SANITIZE_TIMEOUT_S=120 timeout 200 \
    scripts/gpu-sanitize.sh "$OUT/gpu1a" > "$OUT/sanitize-gpu1a-run1.log" 2>&1
  echo "gpu1 memcheck/initcheck rc=$? $(date +%T)"
  CUDA_VISIBLE_DEVICES=1 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/s2 \
    SANITIZE_TOOLS="racecheck synccheck" SANITIZE_ARTIFACTS="$EXAMPLES $OTHERS" \
    SANITIZE_SHARED_ARTIFACTS="$EXAMPLES $OTHERS" SANITIZE_TIMEOUT_S=120 timeout 330 \
    scripts/gpu-sanitize.sh "$OUT/gpu1b" > "$OUT/sanitize-gpu1b-run1.log" 2>&1
  echo "gpu1 racecheck/synccheck rc=$? $(date +%T)"
  for shape in seed-test mixtral-8x7b; do
    [ "$(left 200)" -ge 150 ] || { echo "layer.sh $shape: no time left"; continue; }
    CUDA_VISIBLE_DEVICES=1 MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/d1/gpu BENCH_SHAPES=$shape SKIP_JAX=1 \
      BENCH_REPLAY=0 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
      timeout "$(left 200)" bench/layer.sh "$OUT/layer-$shape" > "$OUT/layer-$shape.log" 2>&1
    echo "layer.sh $shape rc=$? $(date +%T)"
    cp "$OUT/layer-$shape/table.txt" "$OUT/layer-table-$shape-run1.txt" 2>/dev/null
  done
) &
wait
for f in gpu0 gpu1a gpu1b; do
  echo "--- $f"; grep -E "rc=" "$OUT/sanitize-$f-run1.log"; sed -n '/=== summary/,$p' "$OUT/sanitize-$f-run1.log"
done
cat "$OUT"/layer-table-*-run1.txt 2>/dev/null
tar czf "$OUT/sanitize-run1-logs.tgz" -C "$OUT" gpu0 gpu1a gpu1b 2>/dev/null
tar czf "$OUT/layer-run1-logs.tgz" -C "$OUT" $(cd "$OUT" && ls -d layer-seed-test* layer-mixtral-8x7b* 2>/dev/null | grep -v table) 2>/dev/null
rm -rf "$OUT/gpu0" "$OUT/gpu1a" "$OUT/gpu1b" "$OUT/build.log" "$OUT"/layer-seed-test "$OUT"/layer-mixtral-8x7b "$OUT"/layer-*.log
echo "=== end $(date +%T)"
