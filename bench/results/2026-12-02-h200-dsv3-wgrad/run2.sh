#!/usr/bin/env bash
# Device call 2 (one H200): the kernels' bf16 rounding as cvt.rn
# (gpu-native-bf16-truncation) and the blockwise FP8 k-steps' overwriting
# first wgmma, checked and timed. Artifacts compiled on the MLIR machine
# from this session's tree:
#   .art/qz      scripts/gpu-fp8-quantize.sh compile (with the new
#                round_f32_to_bf16 case: raw f32 bit patterns, NaN payloads),
#                without its inputs, which (a) writes
#   .art/g       CHECK_ONLY=1 EXAMPLES=none scripts/gpu-artifacts.sh: the
#                grouped GEMM cases, FP8 weight-gradient cases, NaN and
#                adversarial layers, the fused-adjoint (pingpong) layer
#   .art/f       CHECK_ONLY=1 EXAMPLES="seed-test qwen3-30b-a3b"
#                MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#   .art/wgp/{bf16,fp8}-gen2   dsv3-1gpu's weight gradients alone (as run1's
#                .art/wgp/*-gen), and *-gen2i the same with
#                --bf16-instructions=false (the integer rounding)
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((575 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) quantize and rounding cases, GPU vs CPU byte for byte $(date +%T)"
# Their inputs are written here (23 MB that the working tree cannot carry).
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/qz/in
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/qz > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|cases" "$OUT/quantize.log" | head -20
echo "=== (b) grouped GEMM cases, FP8 weight gradients, NaN, adversarial $(date +%T), $(left) s left"
MOE_ARTIFACTS_ROOT=.art/g BUILD_GPU=/tmp/rb E2E_EXAMPLES="fused-adjoint-layer" E2E_TIMEOUT_S=120 \
  timeout 240 scripts/gpu-e2e.sh /tmp/e2e > "$OUT/e2e.log" 2>&1
echo "rc=$?"; grep -E "PASS|FAIL|rc=|ALL|SOME" "$OUT/e2e.log" | head -30
echo "=== (c) FP8 check layers vs CPU $(date +%T), $(left) s left"
for s in seed-test qwen3-30b-a3b; do
  Q=.art/f/check/gpu/$s
  timeout 100 "$RUNNER" $Q --device gpu --check-against .art/f/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-fp8-$s.log" 2>&1
  echo "$s rc=$?"; grep -E "FAIL|near-ties| d_x | d_w_|  out " "$OUT/check-fp8-$s.log" | grep -v "^  [a-z_0-9]* *(output|gradient|residual)" | head -8
done
echo "=== (d) dsv3-1gpu weight gradients alone $(date +%T), $(left) s left"
timeout $(( $(left) - 10 )) python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa --shapes dsv3-1gpu --iters 10 \
  bf16-cvt=.art/wgp/bf16-gen2 bf16-integer=.art/wgp/bf16-gen2i fp8-cvt=.art/wgp/fp8-gen2 fp8-integer=.art/wgp/fp8-gen2i \
  > "$OUT/wgrad-alone.md" 2>&1
echo "rc=$?"; cat "$OUT/wgrad-alone.md"
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
