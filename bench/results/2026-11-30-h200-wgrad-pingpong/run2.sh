#!/usr/bin/env bash
# Device call 2 (one H200). Artifacts from build.sh (.art/pk) and build2.sh
# (.art/pk2): weight gradients with 128 x 128 tiles, pingpong and not,
# against the default 128 x 256 tiles.
# (1) the GEMMs alone (bench/generated_gemm.py), qwen3-30b-a3b's weight
#     gradients, balanced and skewed: generated (auto: 128 x 256),
#     bn128 (pingpong), bn128-coop, cuBLASLt, torch._grouped_mm, ceiling;
# (2) qwen3-30b-a3b's full layer profiled with --gemm-block-n=128, and the
#     default again in the same call.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((560 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) generated_gemm $(date +%T)"
timeout "$(left 240)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/pk/gg/generated \
  --cublaslt .art/pk/gg/cublaslt --variant bn128=.art/pk2/gg/bn128 --variant bn128-coop=.art/pk2/gg/bn128-coop \
  --out "$OUT/gemm" --shapes qwen3-30b-a3b --passes wgrad --routings balanced,skewed --iters 10 --warmup 2 \
  > "$OUT/gemm-run2.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run2.log" | tail -24
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run2.json" 2>/dev/null
echo "=== (2) profiles $(date +%T)"
for v in .art/pk2/qwen3-bn128 .art/pk/art/gpu/qwen3-30b-a3b; do
  tag=$(basename $v)
  timeout "$(left 60)" "$RUNNER" $v --device gpu --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/profile-$tag-run2.txt" 2>&1
  echo "profile $tag rc=$?"
  grep -E "^entry .* median|\(sum\)|weight_grad" "$OUT/profile-$tag-run2.txt"
done
tar czf "$OUT/logs-run2.tgz" -C "$OUT" gemm gemm-run2.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/gemm"
echo "=== end $(date +%T)"
