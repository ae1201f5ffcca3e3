#!/usr/bin/env bash
# Device call 1 (one H200), main 92553e6's compiler:
#   .art/f4   dsv3-1gpu, FP8 blockwise with FP8 weight inputs (full size and
#             check layer; scripts/gpu-artifacts.sh)
#   .art/s4   seed-test and qwen3-30b-a3b FP8 check layers as sanitizer
#             builds (MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3
#             MOE_GEMM_TMA_STORE=false)
#   .art/q4   scripts/gpu-fp8-quantize.sh's cases (gpu and cpu sides)
# 1. dsv3-1gpu's FP8 check layer against the CPU, forward then backward, in
#    the background (its CPU reference is single-threaded loops over 11 G
#    weight elements); host memory logged every 10 s.
# 2. Meanwhile on the GPU: the quantize cases bit for bit against the CPU,
#    then memcheck and initcheck of every quantize case and of the FP8
#    seed-test and qwen3-30b-a3b check layers (every kernel of the FP8
#    layer: permute and permute_rows of FP8 rows, quantize and dequantize
#    schedules, the FP8 grouped GEMMs forward, dgrad, wgrad).
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
start=$(date +%s)
left() { echo $((560 - ($(date +%s) - start))); }
mkdir -p "$OUT/logs"
(while true; do echo "$(($(date +%s) - start)) s: $(free -g | awk '/Mem:/ {print "used " $3 " GB, available " $7 " GB"}')"; sleep 10; done) > "$OUT/logs/memory.txt" &
mempid=$!
check() { # label entry
  local t; t=$(left)
  [ "$t" -gt 30 ] || { echo "--- $1: no time left"; return; }
  timeout "$t" "$RUNNER" .art/f4/check/gpu/dsv3-1gpu --device gpu --entry "$2" \
    --check-against .art/f4/check/cpu/dsv3-1gpu --warmup 0 --iters 1 \
    > "$OUT/logs/check-$1.log" 2>&1
  echo "--- $1 rc=$? after $(($(date +%s) - start)) s"
  grep -E "PASS|FAIL" "$OUT/logs/check-$1.log" | grep -v ' res' | head -8
}
echo "=== (1) dsv3-1gpu FP8 checks $(date +%T)"
(check dsv3-fp8-fwd moe_layer_fwd; check dsv3-fp8-bwd moe_layer_bwd) > "$OUT/logs/summary-dsv3.txt" 2>&1 &
checks=$!
echo "=== (2) quantize cases bit for bit $(date +%T)"
python3 test/e2e/fp8/Inputs/write-quantize-inputs.py .art/q4/in > /dev/null
RUNNER=$RUNNER timeout 120 scripts/gpu-fp8-quantize.sh run .art/q4 > "$OUT/logs/fp8-quantize.log" 2>&1
echo "rc=$?: $(tail -1 "$OUT/logs/fp8-quantize.log")"
SAN=/usr/local/cuda/bin/compute-sanitizer
echo "=== (3) memcheck / initcheck of the quantize cases $(date +%T)"
for json in .art/q4/gpu/*.json; do
  name=$(basename "$json" .json)
  for tool in memcheck initcheck; do
    extra=(); [ $tool = initcheck ] && extra=(--uninitialized-outputs)
    timeout 60 "$SAN" --tool $tool --error-exitcode 86 "$RUNNER" ".art/q4/gpu/$name" --device gpu \
      --inputs .art/q4/in --warmup 0 --iters 1 "${extra[@]}" > "$OUT/logs/q-$name.$tool.log" 2>&1
    rc=$?
    echo "$name $tool rc=$rc $(grep -E 'ERROR SUMMARY' "$OUT/logs/q-$name.$tool.log" | tail -1)"
  done
done
echo "=== (4) memcheck / initcheck of the FP8 check layers $(date +%T), $(left) s left"
MOE_ARTIFACTS_ROOT=.art/s4 SANITIZE_ARTIFACTS="seed-test qwen3-30b-a3b" SANITIZE_TOOLS="memcheck initcheck" \
  SANITIZE_TIMEOUT_S=200 BUILD_GPU=/tmp/rb timeout "$(( $(left) - 5 ))" scripts/gpu-sanitize.sh "$OUT/sanitize"
echo "rc=$?"
wait $checks
kill $mempid
echo "=== dsv3-1gpu checks"
cat "$OUT/logs/summary-dsv3.txt"
cp "$OUT"/logs/check-*.log "$OUT/logs/memory.txt" "$OUT"/ 2>/dev/null
tar czf "$OUT/logs.tgz" -C "$OUT" logs sanitize 2>/dev/null
rm -rf "$OUT/logs" "$OUT/sanitize" "$OUT/build.log"
echo "=== end $(date +%T)"
