#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts from build.sh (.art/hf).
# (1) the weight gradients alone (bench/generated_gemm.py), qwen3-30b-a3b,
#     balanced and skewed group sizes: heaviest group first
#     (generated) against group order (in-order), cuBLASLt,
#     torch._grouped_mm and the dense ceiling;
# (2) bench/layer.sh qwen3-30b-a3b (default artifacts: heaviest first)
#     against the PyTorch formulations, balanced and skewed;
# (3) the backward profile of qwen3-30b-a3b, heaviest first and in order;
# (4) seed-test and mixtral-8x7b forward and backward, gemm=auto (every
#     grouped GEMM on cuBLASLt) against --gemm=generated (build2.sh),
#     moe-runner's median of 20 on its random inputs.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) generated_gemm $(date +%T)"
timeout "$(left 170)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/hf/gg/generated \
  --cublaslt .art/hf/gg/cublaslt --variant in-order=.art/hf/gg/in-order \
  --out "$OUT/gemm" --shapes qwen3-30b-a3b --passes wgrad --routings balanced,skewed --iters 10 --warmup 2 \
  > "$OUT/gemm-run1.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run1.log" | tail -24
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run1.json" 2>/dev/null
echo "=== (2) layer.sh qwen3-30b-a3b $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/hf/art/gpu BENCH_SHAPES=qwen3-30b-a3b \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
  timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run1.txt" 2>/dev/null
echo "=== (3) profiles $(date +%T)"
for v in .art/hf/art/gpu/qwen3-30b-a3b .art/hf/qwen3-in-order; do
  tag=$(basename $v)
  timeout "$(left 50)" "$RUNNER" $v --device gpu --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/profile-$tag-run1.txt" 2>&1
  echo "profile $tag rc=$?"
  grep -E "^entry .* median|\(sum\)|weight_grad" "$OUT/profile-$tag-run1.txt"
done
echo "=== (4) auto vs generated at 8 experts $(date +%T)"
for shape in seed-test mixtral-8x7b; do
  for round in 1; do
    for v in .art/hf/art/gpu/$shape .art/hf/gen/$shape; do
      tag=$(basename $(dirname $v))
      for e in moe_layer_fwd moe_layer_bwd; do
        [ "$(left 100)" -lt 25 ] && { echo "skipped $shape $tag $e: no time left"; continue; }
        timeout "$(left 60)" "$RUNNER" $v --device gpu --entry $e --iters 20 --warmup 3 \
          > "$OUT/t.txt" 2>&1
        echo "$shape $tag round$round $e rc=$? $(grep -E '^entry .* median' "$OUT/t.txt" | sed 's/.*median/median/')"
      done
    done
  done
done
rm -f "$OUT/t.txt"
tar czf "$OUT/logs-run1.tgz" -C "$OUT" gemm gemm-run1.log layer layer.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/layer" "$OUT/layer.log"
echo "=== end $(date +%T)"
