#!/usr/bin/env bash
# Device call 2 (one H200). Artifacts from build3.sh (.art/hf2): heaviest
# first only where the largest group has more than twice the mean rows.
# (1) qwen3-30b-a3b's weight gradients alone, group order (in-order) timed
#     first this time, then the skew-tested heaviest first (generated);
# (2) scripts/gpu-e2e.sh: every example's check layer forward and backward
#     vs the CPU reference, the GEMM cases (also on 8 CTAs), FP8 weight
#     gradients, NaN and adversarial layers (skewed routing);
# (3) the GEMMs of seed-test and mixtral-8x7b, every pass, balanced:
#     generated against cuBLASLt and torch._grouped_mm (gemm=auto keeps
#     cuBLASLt there);
# (4) bench/layer.sh qwen3-30b-a3b in the time left.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((575 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/hf2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) generated_gemm wgrad $(date +%T)"
timeout "$(left 120)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated $A/gg/in-order \
  --cublaslt $A/gg/cublaslt --variant heaviest-first=$A/gg/generated \
  --out "$OUT/gemm" --shapes qwen3-30b-a3b --passes wgrad --routings balanced,skewed --iters 10 --warmup 2 \
  > "$OUT/gemm-run2.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run2.log" | tail -12
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run2.json" 2>/dev/null
echo "=== (2) gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art timeout "$(left 330)" scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run2.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run2.log" | head -60
echo "=== (3) generated_gemm 8 experts $(date +%T)"
timeout "$(left 150)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated $A/gg/generated \
  --cublaslt $A/gg/cublaslt --out "$OUT/gemm8" --shapes seed-test,mixtral-8x7b --passes fwd,dgrad,wgrad \
  --routings balanced --iters 10 --warmup 2 > "$OUT/gemm8-run2.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm8-run2.log" | tail -16
cp "$OUT/gemm8/generated_gemm.json" "$OUT/generated_gemm8-run2.json" 2>/dev/null
if [ "$(left 200)" -ge 150 ]; then
  echo "=== (4) layer.sh qwen3-30b-a3b $(date +%T)"
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$A/art/gpu BENCH_SHAPES=qwen3-30b-a3b \
    SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
    timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
  echo "layer.sh rc=$?"
  cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
  cp "$OUT/layer/table.txt" "$OUT/layer-table-run2.txt" 2>/dev/null
else
  echo "skipped (4): no time left"
fi
tar czf "$OUT/logs-run2.tgz" -C "$OUT" gemm gemm-run2.log e2e e2e-run2.log gemm8 gemm8-run2.log layer layer.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/gemm8" "$OUT/e2e" "$OUT/layer" "$OUT/layer.log"
echo "=== end $(date +%T)"
