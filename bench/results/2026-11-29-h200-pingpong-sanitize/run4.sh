#!/usr/bin/env bash
# Device call 4 (one H200): the GEMMs alone (bench/generated_gemm.py, build.sh's
# .art/ps/gg entries: generated and cuBLASLt) at the 8-expert shapes and
# dsv3-1gpu, balanced routing, next to torch._grouped_mm and the dense
# ceiling of the same run.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
gemm() { # label shapes passes limit
  echo "=== $1 $(date +%T)"
  timeout "$4" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/ps/gg/generated \
    --cublaslt .art/ps/gg/cublaslt --out "$OUT/gemm-$1" --shapes "$2" \
    --passes "$3" --routings balanced --iters 10 --warmup 2 > "$OUT/gemm-$1.log" 2>&1
  echo "generated_gemm $1 rc=$?"
  grep -v "^==" "$OUT/gemm-$1.log" | tail -16
  cp "$OUT/gemm-$1/generated_gemm.json" "$OUT/generated_gemm-$1-run4.json" 2>/dev/null
}
gemm eight seed-test,mixtral-8x7b fwd,dgrad,wgrad 230
gemm dsv3 dsv3-1gpu fwd,wgrad 230
rm -rf "$OUT/build.log" "$OUT"/gemm-eight "$OUT"/gemm-dsv3
echo "=== end $(date +%T)"
