#!/usr/bin/env bash
# Device call 2 (one H200): run1's bench/generated_gemm.py over every shape
# did not finish in its 230 s (moe-runner makes each entry's inputs on the
# host); here the 8-expert shapes (fwd, wgrad) and qwen3-30b-a3b (fwd, dgrad,
# wgrad), balanced routing, 10 timed calls: gen-auto (default panels)
# against gen-rowmajor (the order before the change), cuBLASLt and
# torch._grouped_mm.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
bench() { # NAME SHAPES PASSES
  echo "=== generated_gemm $1 $(date +%T)"
  timeout 250 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gg/gen-auto \
    --variant rowmajor=.art/gg/gen-rowmajor --cublaslt .art/gg/cublaslt --out "$OUT/$1" \
    --shapes "$2" --passes "$3" --routings balanced --iters 10 --warmup 2 > "$OUT/$1.log" 2>&1
  echo "generated_gemm $1 rc=$?"
  grep -v "^==" "$OUT/$1.log" | tail -40
  cp "$OUT/$1/generated_gemm.json" "$OUT/generated_gemm-$1.json" 2>/dev/null
  rm -rf "$OUT/$1"
}
bench experts8 mixtral-8x7b,seed-test fwd,wgrad
bench qwen3 qwen3-30b-a3b fwd,dgrad,wgrad
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
