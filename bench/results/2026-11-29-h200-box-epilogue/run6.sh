#!/usr/bin/env bash
# Device call 6 (one H200): bf16 tiles that are not whole (a group's last
# rows) are stored by threads from the same swizzled bf16 boxes that TMA
# stores whole tiles from, instead of from a 128 x 132 f32 staging tile:
# the epilogue takes 32 KB instead of 66 KB, and 128 x 128 tiles get 5
# stages instead of 4.
#   .art/n1        scripts/gpu-artifacts.sh at the change (all sections)
#   .art/gv2/gen   bench/generated_gemm.py entries at the change (5 stages)
#   .art/gv2/s4    the same capped at 4 stages
#   .art/gv/gen    main 8adf717 (4 stages, f32 staging)
#   .art/q0        qwen3-30b-a3b's layer at main 8adf717
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/n1 \
  timeout 110 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run6.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS" "$OUT/e2e-run6.log" | head -30
echo "=== generated_gemm $(date +%T)"
timeout 110 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gv2/gen \
  --variant s4=.art/gv2/s4 --variant main=.art/gv/gen --out "$OUT/gemm" \
  --shapes qwen3-30b-a3b,seed-test --passes fwd,dgrad --routings balanced \
  --iters 10 --warmup 2 > "$OUT/gemm-run6.log" 2>&1
echo "generated_gemm rc=$?"
sed -n '/^gemm  *routing  *gen ms  *TF\/s  *s4/,$p' "$OUT/gemm-run6.log"
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run6.json" 2>/dev/null
for art in n1 q0; do
  echo "=== layer $art $(date +%T)"
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/$art/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
    BENCH_REPS=20 BENCH_WARMUP=3 SKIP_PEERS=1 \
    timeout 75 bench/layer.sh "$OUT/layer-$art" > "$OUT/layer-$art.log" 2>&1
  echo "layer.sh $art rc=$?"
  sed -n '/^shape/,/^vs torch/p' "$OUT/layer-$art/table.txt" 2>/dev/null || tail -5 "$OUT/layer-$art.log"
  cp "$OUT/layer-$art/table.txt" "$OUT/layer-table-$art-run6.txt" 2>/dev/null
done
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/layer-n1" "$OUT/layer-q0" "$OUT/e2e" "$OUT"/layer-*.log
echo "=== end $(date +%T)"
