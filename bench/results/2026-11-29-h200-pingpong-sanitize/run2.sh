#!/usr/bin/env bash
# Device call 2 (one H200). Artifacts from build-router.sh .art/ac (the
# router's part products as one GEMM that writes its output, fills dropped)
# and build.sh's .art/ps/gg (the GEMM-alone entries; grouped GEMMs only).
# (1) the runtime's unit test (moe-gpu-grouped-gemm-test: dense matmuls with
#     and without accumulate, grouped GEMMs) as test/gpu/grouped-gemm.test;
# (2) test/gpu/split-matmul.test's checks;
# (3) qwen3-30b-a3b's full layer profiled;
# (4) scripts/gpu-e2e.sh: every example's check layer forward and backward,
#     GEMM cases, FP8 weight gradients, NaN and adversarial layers;
# (5) bench/layer.sh, qwen3-30b-a3b against the PyTorch formulations;
# (6) the GEMMs alone (bench/generated_gemm.py), qwen3-30b-a3b, in the time
#     left.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/ac
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) runtime unit test $(date +%T)"
cmake --build /tmp/rb --target moe-gpu-grouped-gemm-test > "$OUT/unit-build.log" 2>&1 || tail -5 "$OUT/unit-build.log"
T=$(find /tmp/rb -name moe-gpu-grouped-gemm-test -type f | head -1)
timeout 120 "$T" > "$OUT/unit.log" 2>&1; echo "unit rc=$?"
grep -c "^PASS" "$OUT/unit.log"; grep -E "^FAIL|ALL PASSED|matmul_bf16.*overwrite" "$OUT/unit.log" | head -20
echo "=== (2) split matmuls $(date +%T)"
timeout 60 "$RUNNER" $A/split/split-matmul-gpu --device gpu --seed 5 --iters 1 --warmup 0 \
  --check-against $A/split/split-matmul-cpu > "$OUT/split.log" 2>&1
echo "split-matmul rc=$?"; grep -E "rel_l2|^check:" "$OUT/split.log"
"$RUNNER" $A/split/split-matmul-bf16-cpu --device cpu --seed 5 --iters 1 --warmup 0 --dump "$OUT/sd-cpu" > /dev/null 2>&1
timeout 60 "$RUNNER" $A/split/split-matmul-bf16-gpu --device gpu --seed 5 --iters 1 --warmup 0 --dump "$OUT/sd-gpu" > /dev/null 2>&1
echo "split-matmul-bf16 rc=$?"
python3 scripts/compare-dumps.py "$OUT/sd-cpu" "$OUT/sd-gpu" --default-tol 1e-5 | grep result; echo "compare rc=${PIPESTATUS[0]}"
echo "=== (3) profile $(date +%T)"
timeout 60 "$RUNNER" $A/art/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --iters 20 --warmup 3 --profile > "$OUT/profile-qwen3-run2.txt" 2>&1
echo "profile rc=$?"; grep -E "^entry .* median|matmul_bf16|split_bf16|_gate |_elementwise " "$OUT/profile-qwen3-run2.txt" | head -40
echo "=== (4) gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art timeout "$(left 240)" scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run2.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run2.log" | head -60
echo "=== (5) layer.sh $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$A/art/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=120 \
  timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run2.txt" 2>/dev/null
echo "=== (6) generated_gemm $(date +%T)"
timeout "$(left 170)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/ps/gg/generated \
  --cublaslt .art/ps/gg/cublaslt --out "$OUT/gemm" --shapes qwen3-30b-a3b \
  --passes fwd,dgrad,wgrad --routings balanced,skewed --iters 10 --warmup 2 > "$OUT/gemm-run2.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run2.log" | tail -24
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run2.json" 2>/dev/null
tar czf "$OUT/logs-run2.tgz" -C "$OUT" e2e e2e-run2.log layer layer.log unit.log split.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/layer" "$OUT/gemm" "$OUT/sd-cpu" "$OUT/sd-gpu"
echo "=== end $(date +%T)"
