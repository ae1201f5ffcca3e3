#!/usr/bin/env bash
# Device call 2 (one H200): bench/layer.sh on qwen3-30b-a3b and dsv3-1gpu,
# balanced and skewed routing, with the paired dgrad kernel (.art/ga1/gpu:
# scripts/gpu-artifacts.sh, gemm=auto, recompute=none): ours plain and
# replayed from CUDA graphs against every PyTorch formulation (fused,
# separate, torch.compile of the faster) and the dense bf16 ceiling, same run.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/ga1/gpu BENCH_SHAPES=${BENCH_SHAPES:-qwen3-30b-a3b,dsv3-1gpu} \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=200 \
  timeout 570 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -30 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/table.txt" 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/layer"
