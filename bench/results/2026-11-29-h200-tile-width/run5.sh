#!/usr/bin/env bash
# Device call 5 (one H200): is the qwen3-30b-a3b GEMMs' 128 x 128 tile with
# 4 stages the right choice on H200 with the current kernel?
#   .art/gv/gen   bench/generated_gemm.py entries, --gemm=generated (main)
#   .art/gv/s3    the same capped at 3 stages (--gemm-max-stages=3)
#   .art/gv/n256  128 x 256 tiles everywhere (--gemm-block-n=256; 3 stages)
# Then bench/layer.sh on qwen3-30b-a3b: .art/q0 (main's artifacts, with the
# PyTorch formulations) and .art/q256 (MOE_GEMM_BLOCK_N=256; ours only).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== generated_gemm $(date +%T)"
timeout 200 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gv/gen \
  --variant s3=.art/gv/s3 --variant n256=.art/gv/n256 --out "$OUT/gemm" \
  --shapes qwen3-30b-a3b,seed-test --passes fwd,dgrad,wgrad --routings balanced \
  --iters 10 --warmup 2 > "$OUT/gemm-run5.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run5.log" | tail -22
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run5.json" 2>/dev/null
for art in q0 q256; do
  echo "=== layer $art $(date +%T)"
  peers="SKIP_JAX=1 TORCH_COMPILE_TIMEOUT_S=150"
  [ $art = q256 ] && peers="SKIP_PEERS=1"
  env MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/$art/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
    BENCH_REPS=20 BENCH_WARMUP=3 $peers \
    timeout 200 bench/layer.sh "$OUT/layer-$art" > "$OUT/layer-$art.log" 2>&1
  echo "layer.sh $art rc=$?"
  cat "$OUT/layer-$art/table.txt" 2>/dev/null | sed -n '/^shape/,/^vs torch/p' || tail -20 "$OUT/layer-$art.log"
  cp "$OUT/layer-$art/table.txt" "$OUT/layer-table-$art-run5.txt" 2>/dev/null
done
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/layer-q0" "$OUT/layer-q256"
echo "=== end $(date +%T)"
