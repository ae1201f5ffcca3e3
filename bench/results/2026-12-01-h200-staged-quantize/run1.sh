#!/usr/bin/env bash
# Device call 1 (one H200), the compiler of this session: the staged
# (shared-memory tile) schedule of the transposed block_1x128 quantizes
# (moe.quantize_with_transpose, the transposed quantize, the dequantized
# transposed quantize), artifacts compiled on the CPU machine:
#   .art/q31   scripts/gpu-fp8-quantize.sh's cases (BENCH=1)
#   .art/f31   FP8 blockwise, FP8 weight inputs, qwen3-30b-a3b + seed-test
#   .art/f31a  the same with --fp8-quantize-with-transpose and
#              --fp8-glu-quantize (both off by default)
#   .art/b31   bf16, the same shapes
# (a) the quantize cases byte-identical to the CPU, and their bandwidth;
# (b) compute-sanitizer memcheck, racecheck, synccheck, initcheck on
#     quantize-large (the staged kernels' shared tile);
# (c) f31a's check layers against the CPU, forward and backward;
# (d) profiles of qwen3-30b-a3b, f31 and f31a;
# (e) bench/fp8-layer.sh on qwen3-30b-a3b: bf16, FP8, FP8 with both options.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 150 scripts/gpu-fp8-quantize.sh run .art/q31 > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|differ|cases|GB/s|ms" "$OUT/quantize.log" | head -40
echo "=== (b) sanitizers on quantize-large $(date +%T)"
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck initcheck; do
  timeout 100 $SAN --tool $tool --kernel-name kns=__moe_entry_ --print-limit 20 \
    "$RUNNER" .art/q31/gpu/quantize-large --device gpu --inputs .art/q31/in \
    --iters 1 --warmup 0 > "$OUT/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
done
echo "=== (c) check layers with both options $(date +%T), $(left) s left"
for s in qwen3-30b-a3b seed-test; do
  Q=.art/f31a/check/gpu/$s
  timeout 150 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --check-against .art/f31a/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-$s.log" 2>&1
  echo "$s rc=$?"; grep -E "^check|FAIL|rel_l2" "$OUT/check-$s.log" | head -20
done
echo "=== (d) qwen3 profiles $(date +%T), $(left) s left"
for v in f31 f31a; do
  timeout 90 "$RUNNER" .art/$v/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd \
    --entry moe_layer_bwd --iters 20 --warmup 3 --profile > "$OUT/profile-qwen3-$v.txt" 2>&1
  echo "--- $v rc=$?"; grep -E "^entry .* median|quantize|transpose|glu|\(sum\)" "$OUT/profile-qwen3-$v.txt"
done
echo "=== (e) bench/fp8-layer.sh qwen3 $(date +%T), $(left) s left"
FP8_VARIANT_ART=.art/f31a/gpu FP8_VARIANT_LABEL="FP8 both-ways+glu" BENCH_SHAPES=qwen3-30b-a3b \
  MOE_RUNNER=$RUNNER RUNNER_TIMEOUT_S=90 timeout "$(( $(left) - 5 ))" \
  bench/fp8-layer.sh .art/b31/gpu .art/f31/gpu /tmp/fp8-layer
echo "rc=$?"
cp /tmp/fp8-layer/fp8.md "$OUT"/ 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
