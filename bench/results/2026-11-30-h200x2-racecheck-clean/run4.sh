#!/usr/bin/env bash
# Device call 4: scripts/gpu-sanitize.sh as committed, over the tree's
# sanitizer builds:
#   .art/f3   MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3 MOE_GEMM_TMA_STORE=false
#             MOE_DENSE_MATMULS=false CHECK_ONLY=1 scripts/gpu-artifacts.sh
#   .art/f2r  the same at MOE_GEMM_MAX_STAGES=2 with
#             MOE_GEMM_RACECHECK_LAYOUT=true (racecheck, synccheck)
# GPU 0: every artifact but dsv3-1gpu, all four tools (the examples'
#        generated GEMMs and the GEMM, FP8 and adversarial cases under
#        racecheck/synccheck). GPU 1 (where there is one): dsv3-1gpu's
#        synccheck (its memcheck/initcheck ran in run1, racecheck in run2).
set -u
cd "$(dirname "$0")/../../.." || exit 1
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
GPUS=$(nvidia-smi -L | wc -l)
ALL="small seed-test qwen3-30b-a3b fused-adjoint-layer mixtral-8x7b gemm fp8wgrad nan adversarial"
echo "=== start $(date +%T)"
if [ "$GPUS" -ge 2 ]; then
  CUDA_VISIBLE_DEVICES=1 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/f3 SANITIZE_SHARED_ROOT=.art/f2r \
    SANITIZE_TOOLS="synccheck" SANITIZE_ARTIFACTS="dsv3-1gpu" SANITIZE_SHARED_ARTIFACTS="dsv3-1gpu" \
    SANITIZE_LARGE_TIMEOUT_S=300 timeout 330 scripts/gpu-sanitize.sh "$OUT/gpu1" > "$OUT/sanitize-gpu1.log" 2>&1 &
fi
CUDA_VISIBLE_DEVICES=0 BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/f3 SANITIZE_SHARED_ROOT=.art/f2r \
  SANITIZE_ARTIFACTS="$ALL cublaslt" SANITIZE_SHARED_ARTIFACTS="$ALL" SANITIZE_TIMEOUT_S=150 \
  timeout 420 scripts/gpu-sanitize.sh "$OUT/gpu0" > "$OUT/sanitize-gpu0.log" 2>&1
echo "gpu0 rc=$? $(date +%T)"
wait
for f in gpu0 gpu1; do
  [ -f "$OUT/sanitize-$f.log" ] || continue
  echo "--- $f"; sed -n '/=== summary/,$p' "$OUT/sanitize-$f.log"
done
tar czf "$OUT/logs-run4.tgz" -C "$OUT" gpu0 $( [ -d "$OUT/gpu1" ] && echo gpu1 ) 2>/dev/null
rm -rf "$OUT/gpu0" "$OUT/gpu1" "$OUT/build.log"
echo "=== end $(date +%T)"
