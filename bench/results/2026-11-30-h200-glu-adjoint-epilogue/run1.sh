#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts from scripts/gpu-artifacts.sh (.art/ga1/art)
# plus the full-size seed-test and qwen3-30b-a3b layers compiled with
# --gemm-epilogue-fusion=false (.art/ga1/unfused), all from the same tree.
# (1) scripts/gpu-e2e.sh: every example's check layer forward and backward vs
#     the CPU reference (and small, seed-test, qwen3-30b-a3b with every
#     grouped GEMM generated: the activation adjoint in the dgrad epilogue),
#     the GEMM cases (glu_adjoint: epilogue inputs, three destinations) on
#     132 and 8 CTAs, panels, cuBLASLt; FP8 wgrads, NaN, adversarial layers;
# (2) the full-size backward of seed-test and qwen3-30b-a3b, fused and
#     unfused, moe-runner --profile, median of 20, alternating twice;
# (3) bench/layer.sh qwen3-30b-a3b in the time left.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/ga1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art timeout "$(left 300)" scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run1.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===|ALL|entry .* on gpu" "$OUT/e2e-run1.log" | head -90
echo "=== (2) backward profiles, fused vs unfused $(date +%T)"
for round in 1 2; do
  for shape in qwen3-30b-a3b seed-test; do
    for variant in fused unfused; do
      art=$A/art/gpu/$shape
      [ $variant = unfused ] && art=$A/unfused/$shape
      timeout "$(left 60)" "$RUNNER" "$art" --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
        --profile > "$OUT/profile-$shape-$variant-r$round.txt" 2>&1
      echo "$shape $variant round $round rc=$?: $(grep -m1 'median' "$OUT/profile-$shape-$variant-r$round.txt")"
    done
  done
done
if [ "$(left 200)" -ge 150 ]; then
  echo "=== (3) layer.sh qwen3-30b-a3b $(date +%T)"
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$A/art/gpu BENCH_SHAPES=qwen3-30b-a3b \
    SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
    timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
  echo "layer.sh rc=$?"
  cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
  cp "$OUT/layer/table.txt" "$OUT/layer-table-run1.txt" 2>/dev/null
else
  echo "skipped (3): no time left"
fi
tar czf "$OUT/logs-run1.tgz" -C "$OUT" e2e e2e-run1.log layer layer.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/layer" "$OUT/layer.log"
echo "=== end $(date +%T)"
