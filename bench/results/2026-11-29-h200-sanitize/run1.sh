#!/bin/bash
# One H200: (1) the FP8 quantize/dequantize cases, GPU vs CPU byte for byte,
# since a16889f (transposed 1x128 through loadRowVectorAsF32/butterflyMax)
# had not run on a GPU; (2) compute-sanitizer memcheck and initcheck on the
# large quantize case (the transposed schedule among them); (3) the NCCL
# collectives test at P = 1 (host-counts and device exchange, graph replays)
# under compute-sanitizer memcheck; (4) the one-GPU qwen3 layer with
# --cuda-graph --graph-variants 2 (plain call before capture, replays on
# other routing bit-identical to plain calls).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
CS=/usr/local/cuda/bin/compute-sanitizer
echo "== fp8 quantize bit-identity"
timeout 200 bash scripts/gpu-fp8-quantize.sh run .art/q > "$OUT/q.txt" 2>&1; echo "rc=$?"
grep -vE "moe-runner: \[" "$OUT/q.txt" | tail -18
RUNNER=$(find "$BUILD_GPU" -name moe-runner -type f -perm -u+x | head -1)
export MOE_RUNTIME_GPU_LIB=$(find "$BUILD_GPU" -name 'libmoe_runtime_gpu.so' | head -1)
for tool in memcheck initcheck; do
  echo "== $tool quantize-large"
  timeout 200 $CS --tool $tool --error-exitcode 86 "$RUNNER" .art/q/gpu/quantize-large --device gpu \
    --inputs .art/q/in --iters 1 --warmup 0 > "$OUT/q-$tool.log" 2>&1; echo "rc=$?"
  grep -E "ERROR SUMMARY|entry .* on gpu" "$OUT/q-$tool.log" | head -12
done
echo "== collectives test P=1 (+ build)"
cmake --build "$BUILD_GPU" --target moe-gpu-collectives-test > "$OUT/coll-build.log" 2>&1 || tail -20 "$OUT/coll-build.log"
COLL=$(find "$BUILD_GPU" -name moe-gpu-collectives-test -type f -perm -u+x | head -1)
timeout 200 $CS --tool memcheck --error-exitcode 86 "$COLL" 1 > "$OUT/coll-memcheck.log" 2>&1; echo "rc=$?"
grep -E "checks|PASSED|FAIL|ERROR SUMMARY" "$OUT/coll-memcheck.log" | head
echo "== qwen3 one GPU, --cuda-graph --graph-variants 2"
timeout 200 "$RUNNER" .art/epn/qwen3-full-one --device gpu --cuda-graph --graph-variants 2 \
  --iters 10 --warmup 1 --seed 11 > "$OUT/graph.log" 2>&1; echo "rc=$?"
grep -E "graph variant|entry moe_layer.* on gpu|error" "$OUT/graph.log" | sed 's/ \[NVIDIA.*\]//' | head -20
cd "$OUT" && tar czf logs.tgz *.txt *.log 2>/dev/null
