#!/usr/bin/env bash
# Device call 4 (one H200): seed-test and mixtral-8x7b forward and backward,
# gemm=auto (.art/hf2/art/gpu: every grouped GEMM a cuBLASLt call per group
# after the sizes reach the host) against --gemm=generated after the
# tile-width change (.art/hf4, build5.sh), moe-runner's median of 20 on
# its random inputs, two rounds; then the generated ones' plain calls
# against CUDA-graph replays (--cuda-graph: no host sync inside).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((400 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
for round in 1 2; do
  for shape in seed-test mixtral-8x7b; do
    for v in .art/hf2/art/gpu/$shape .art/hf4/$shape; do
      case $v in .art/hf4/*) tag=generated ;; *) tag=auto ;; esac
      for e in moe_layer_fwd moe_layer_bwd; do
        [ "$(left 100)" -lt 30 ] && { echo "skipped $shape $tag $e: no time left"; continue; }
        timeout "$(left 60)" "$RUNNER" $v --device gpu --entry $e --iters 20 --warmup 3 > "$OUT/t.txt" 2>&1
        echo "round$round $shape $tag $e rc=$? $(grep -E '^entry .* median' "$OUT/t.txt" | sed 's/.*median/median/')"
      done
    done
  done
done
for shape in seed-test mixtral-8x7b; do
  [ "$(left 100)" -lt 40 ] && { echo "skipped replay $shape: no time left"; continue; }
  timeout "$(left 80)" "$RUNNER" .art/hf4/$shape --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --iters 20 --warmup 3 --cuda-graph > "$OUT/t.txt" 2>&1
  echo "replay $shape generated rc=$?"; grep -iE "median|graph|replay" "$OUT/t.txt" | head -8
done
rm -f "$OUT/t.txt" "$OUT/build.log"
echo "=== end $(date +%T)"
