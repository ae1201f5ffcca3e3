#!/usr/bin/env bash
# Device call 1 (one H200), compiler cfdfe78 (.art/qz5, .art/f7w, .art/f7):
# (a) scripts/gpu-fp8-quantize.sh: the 13 quantize cases byte-identical to
#     the CPU (quantize-large: 64 dumps, the fused dequantize-transpose-
#     quantize and its copy-returned case after 97f47b7/f41a71f), the bench;
# (b) compute-sanitizer memcheck and initcheck on quantize-large;
# (c) FP8 with bf16 weight gradients (.art/f7w: gemms=fc1,fc2,forward,dgrad)
#     against the CPU, forward and backward: seed-test, qwen3, mixtral;
# (d) profiles of dsv3-1gpu's backward: full blockwise FP8 (.art/f7) and
#     the bf16-wgrad variant (.art/f7w);
# and this session's first change (overlapped promotion of blockwise FP8
# grouped matmuls, .art/kf30 and .art/gg30):
# (e) test/gpu/Inputs/fp8-grouped-matmul.mlir's cases against the CPU (132
#     and 8 CTAs) and memcheck;
# (f) bench/generated_gemm.py's FP8 blockwise fwd/dgrad entries, overlapped
#     promotion (fp8b-ov) against the kernel before (fp8b-base), same run.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((560 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 120 scripts/gpu-fp8-quantize.sh run .art/qz5 > "$OUT/quantize.log" 2>&1
echo "rc=$?"; grep -E "identical|FAIL|differ|entry|GB/s|cases" "$OUT/quantize.log" | head -40
echo "=== (b) sanitizer on quantize-large $(date +%T)"
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck initcheck; do
  timeout 120 $SAN --tool $tool --kernel-name kns=__moe_entry_ --print-limit 20 \
    "$RUNNER" .art/qz5/gpu/quantize-large --device gpu --inputs .art/qz5/in \
    --iters 1 --warmup 0 > "$OUT/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/sanitize-$tool.log")"
done
echo "=== (e) FP8 grouped matmul cases, overlapped promotion $(date +%T)"
for a in mm-generated mm-generated-c8; do
  timeout 120 "$RUNNER" .art/kf30/$a --device gpu --inputs .art/kf30/mm-in --iters 1 --warmup 0 \
    --check-against .art/kf30/mm-cpu > "$OUT/check-$a.log" 2>&1
  echo "$a rc=$? $(grep -c PASS "$OUT/check-$a.log") PASS, $(grep -c FAIL "$OUT/check-$a.log") FAIL"
done
timeout 120 $SAN --tool memcheck --print-limit 20 "$RUNNER" .art/kf30/mm-generated --device gpu \
  --inputs .art/kf30/mm-in --iters 1 --warmup 0 > "$OUT/sanitize-mm-memcheck.log" 2>&1
echo "memcheck mm-generated rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/sanitize-mm-memcheck.log")"
echo "=== (f) FP8 GEMMs, overlapped promotion vs before $(date +%T), $(left) s left"
timeout 200 python3 bench/results/2026-11-29-h200-fp8-wgrad/fp8_gemm_times.py --runner "$RUNNER" \
  --out /tmp/g8 --shapes seed-test,mixtral-8x7b,qwen3-30b-a3b,dsv3-1gpu --passes fwd,dgrad \
  base=.art/gg30/fp8b-base ov=.art/gg30/fp8b-ov 2>&1 | tee "$OUT/fp8-gemms.txt"
echo "=== (c) bf16-wgrad FP8 checks $(date +%T), $(left) s left"
for s in seed-test qwen3-30b-a3b mixtral-8x7b; do
  Q=.art/f7w/check/gpu/$s
  timeout 150 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --check-against .art/f7w/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-$s-fp8w.log" 2>&1
  echo "$s rc=$?"; grep -E "^check|FAIL|rel_l2" "$OUT/check-$s-fp8w.log" | head -30
done
echo "=== (d) dsv3 backward profiles $(date +%T), $(left) s left"
for v in f7 f7w; do
  [ "$(left)" -gt 90 ] || { echo "skip $v: $(left) s left"; continue; }
  timeout $(( $(left) - 10 )) "$RUNNER" .art/$v/gpu/dsv3-1gpu --device gpu --entry moe_layer_bwd \
    --iters 5 --warmup 2 --profile > "$OUT/profile-dsv3-$v.txt" 2>&1
  echo "$v rc=$?"; grep -E "median|grouped|quantize|\(sum\)" "$OUT/profile-dsv3-$v.txt" | head -40
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
