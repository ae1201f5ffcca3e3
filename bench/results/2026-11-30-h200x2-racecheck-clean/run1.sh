#!/usr/bin/env bash
# Device call 1 (two H200s, one sanitizer process a GPU).
#   .art/v1  fp8-weight-grad.mlir at 2 stages: the K-major zeroing as on
#            main (read, mask, store) plus a warp sync after it
#   .art/t3  the tree (store-only zeroing + warp sync): MOE_GEMM=generated
#            MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
#            MOE_DENSE_MATMULS=false CHECK_ONLY=1 scripts/gpu-artifacts.sh
#   .art/t2  the same at MOE_GEMM_MAX_STAGES=2 (racecheck, synccheck)
#   .art/t2s dsv3-1gpu's check layer and the GEMM cases at 2 stages with
#            TMA stores (the production epilogue; fewer shared-memory
#            accesses for racecheck to track)
#   .art/v3  fp8-weight-grad.mlir with the tree at default, 2 and 3 stages
# GPU 1: dsv3-1gpu racecheck (.art/t2s), launches blocking.
# GPU 0: v1's racecheck; v3 against the CPU; then scripts/gpu-sanitize.sh
#        over every other artifact (all four tools); then dsv3-1gpu's
#        memcheck and initcheck in the time left.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((585 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
ALL="small seed-test qwen3-30b-a3b fused-adjoint-layer mixtral-8x7b gemm fp8wgrad nan adversarial"
echo "=== start $(date +%T) (build took ${SECONDS} s)"
mkdir -p "$OUT/gpu0"
(
  CUDA_VISIBLE_DEVICES=1 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/t2s \
    SANITIZE_TOOLS="racecheck" SANITIZE_ARTIFACTS="dsv3-1gpu" \
    SANITIZE_SHARED_ARTIFACTS="dsv3-1gpu" SANITIZE_LARGE_RACECHECK_TIMEOUT_S="$(left 600)" \
    scripts/gpu-sanitize.sh "$OUT/gpu1" > "$OUT/sanitize-gpu1.log" 2>&1
  echo "gpu1 dsv3 racecheck rc=$? $(date +%T)"
) &
(
  export CUDA_VISIBLE_DEVICES=0
  echo "--- v1 (read-mask-store + warp sync) racecheck"
  CUDA_LAUNCH_BLOCKING=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --print-limit 10 \
    "$RUNNER" .art/v1/fp8wgrad/kmajor-gpu --inputs .art/v1/fp8wgrad/kmajor-in --device gpu --iters 1 --warmup 0 \
    > "$OUT/gpu0/v1-racecheck.log" 2>&1
  echo "v1 racecheck rc=$?"; grep -E "RACECHECK SUMMARY|Race reported|Error:" "$OUT/gpu0/v1-racecheck.log" | head -8
  for v in kmajor-gpu kmajor-gpu-s2 kmajor-gpu-s3; do
    timeout 120 "$RUNNER" .art/v3/fp8wgrad/$v --inputs .art/v3/fp8wgrad/kmajor-in --device gpu --iters 1 --warmup 0 \
      --check-against .art/v3/fp8wgrad/kmajor-cpu > "$OUT/gpu0/v3-check-$v.log" 2>&1
    echo "v3 $v check rc=$? $(grep -E '^check:' "$OUT/gpu0/v3-check-$v.log" | tail -1)"
  done
  BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/t3 SANITIZE_SHARED_ROOT=.art/t2 \
    SANITIZE_ARTIFACTS="$ALL cublaslt" SANITIZE_SHARED_ARTIFACTS="$ALL" SANITIZE_TIMEOUT_S=150 \
    timeout "$(left 380)" scripts/gpu-sanitize.sh "$OUT/gpu0/all" > "$OUT/sanitize-gpu0.log" 2>&1
  echo "gpu0 all-but-dsv3 rc=$? $(date +%T)"
  echo "--- gemm racecheck with TMA stores (.art/t2s/gemm)"
  CUDA_LAUNCH_BLOCKING=1 timeout "$(left 60)" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --print-limit 10 \
    "$RUNNER" .art/t2s/gemm/gpu --inputs .art/t2s/gemm/in --device gpu --iters 1 --warmup 0 \
    > "$OUT/gpu0/gemm-tmastore-racecheck.log" 2>&1
  echo "gemm tma-store racecheck rc=$?"; grep -E "RACECHECK SUMMARY|Race reported" "$OUT/gpu0/gemm-tmastore-racecheck.log" | head -6
  if [ "$(left 400)" -ge 250 ]; then
    BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/t3 SANITIZE_TOOLS="memcheck initcheck" \
      SANITIZE_ARTIFACTS="dsv3-1gpu" SANITIZE_LARGE_TIMEOUT_S=130 \
      timeout "$(left 400)" scripts/gpu-sanitize.sh "$OUT/gpu0/dsv3" > "$OUT/sanitize-gpu0-dsv3.log" 2>&1
    echo "gpu0 dsv3 memcheck/initcheck rc=$? $(date +%T)"
  else
    echo "dsv3 memcheck/initcheck: no time left ($(left 400) s)"
  fi
) > "$OUT/gpu0.log" 2>&1 &
wait
cat "$OUT/gpu0.log"
for f in gpu0 gpu0-dsv3 gpu1; do
  echo "--- $f"; sed -n '/=== summary/,$p' "$OUT/sanitize-$f.log" 2>/dev/null
done
tail -5 "$OUT/gpu1"/*.log 2>/dev/null | grep -v "^$" | tail -12
tar czf "$OUT/logs-run1.tgz" -C "$OUT" gpu0 gpu1 2>/dev/null
rm -rf "$OUT/gpu0" "$OUT/gpu1" "$OUT/build.log"
echo "=== end $(date +%T)"
