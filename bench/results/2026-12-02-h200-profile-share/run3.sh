#!/usr/bin/env bash
# Device call 3 (one H200). Artifacts compiled on the MLIR machine from this
# tree (the dequantized transposed quantize's staged schedule on 128-thread
# blocks for FP8 sources):
#   .art/qz   BENCH=1 scripts/gpu-fp8-quantize.sh compile (inputs made here)
#   .art/f    CHECK_ONLY=1 EXAMPLES=qwen3-30b-a3b MOE_FP8_RECIPE=blockwise
#             MOE_FP8_WEIGHT_INPUTS=1
#   .art/f2   qwen3-30b-a3b full size, the same FP8 placement
#   .art/b    run2's dsv3-1gpu artifacts: gemm=auto (cuBLASLt weight
#             gradients: below 512 rows a group) and --gemm=generated
# (1) quantize cases byte for byte and the quantize kernels' bandwidth;
# (2) the FP8 check layer against the CPU; (3) the FP8 backward's profile;
# (4) dsv3-1gpu's backward, cuBLASLt weight gradients against generated
#     ones, plain calls in the same call.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (1) quantize cases, GPU vs CPU byte for byte, and bandwidth $(date +%T)"
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/qz/in
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/qz > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|cases|differ|GB/s" "$OUT/quantize.log" | head -40
echo "=== (2) FP8 check layer vs CPU $(date +%T), $(left) s left"
Q=.art/f/check/gpu/qwen3-30b-a3b
timeout 90 "$RUNNER" $Q --device gpu --check-against .art/f/check/cpu/qwen3-30b-a3b --reuse-fp8-weights \
  $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-fp8-qwen3.log" 2>&1
echo "rc=$?"; grep -E "FAIL|near-ties|^check" "$OUT/check-fp8-qwen3.log" | head -6
echo "=== (3) qwen3-30b-a3b FP8 backward profile $(date +%T), $(left) s left"
timeout 90 "$RUNNER" .art/f2/gpu/qwen3-30b-a3b --device gpu --profile --warmup 2 --iters 10 \
  --entry moe_layer_bwd > "$OUT/profile-qwen3-fp8-bwd.txt" 2>&1
echo "rc=$?"; grep -E "^entry|quantize|(sum)" "$OUT/profile-qwen3-fp8-bwd.txt"
echo "=== (4) dsv3-1gpu backward: gemm=auto vs generated $(date +%T), $(left) s left"
for v in dsv3-1gpu dsv3-1gpu-generated dsv3-1gpu; do
  [ "$(left)" -gt 60 ] || { echo "skip $v"; continue; }
  timeout $(( $(left) - 10 )) "$RUNNER" .art/b/gpu/$v --device gpu --warmup 3 --iters 20 \
    --entry moe_layer_bwd > "$OUT/$v-bwd.txt" 2>&1
  echo "$v rc=$?: $(grep -E "^entry" "$OUT/$v-bwd.txt" | sed 's/ on gpu.*: median/: median/' | tr '\n' ';')"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
