#!/usr/bin/env bash
# Device call 2 (one H200): partial k-steps of blockwise FP8 weight gradients
# zeroed by the producer warpgroup's three spare warps (GroupedGemmConfig::
# producerZeroes) instead of by the consumers. Artifacts compiled on the MLIR
# machine with that compiler:
#   .art/wz/zero             build.sh's weight-gradient entries (.art/wr/base:
#                            ed6655e, from run1)
#   .art/wz/kw-gpu*          test/gpu/fp8-weight-grad.test's cases: default,
#                            2 stages, 8 CTAs, no TMA stores (.art/wr/kw-cpu,
#                            kw-in: the reference and sizes)
#   .art/f36, .art/b36       scripts/gpu-artifacts.sh, FP8 blockwise with FP8
#                            weight inputs and bf16: qwen3-30b-a3b,
#                            mixtral-8x7b, dsv3-1gpu
#   .art/f36cg               FP8 with --fp8-combine-grad-quantize (qwen3,
#                            mixtral)
# (a) the kernel cases against the CPU; memcheck, racecheck, synccheck;
# (b) the weight gradients alone, aligned / routed / skewed sizes;
# (c) check layers forward and backward against the CPU;
# (d) bench/fp8-layer.sh: qwen3-30b-a3b and mixtral-8x7b (FP8, FP8 with the
#     combine-grad fusion, bf16), then dsv3-1gpu balanced while time is left.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((560 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
Z=.art/wz R=.art/wr
echo "=== (a) kernel cases against the CPU $(date +%T)"
for v in kw-gpu kw-gpu-s2 kw-gpu-c8 kw-gpu-threads; do
  timeout 60 "$RUNNER" $Z/$v --device gpu --inputs $R/kw-in --iters 3 --warmup 1 \
    --check-against $R/kw-cpu > "$OUT/check-$v.log" 2>&1
  echo "$v rc=$? $(grep -c PASS "$OUT/check-$v.log") PASS $(grep -c FAIL "$OUT/check-$v.log") FAIL"
done
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 60 $SAN --tool $tool --kernel-name kns=__moe_entry_ --print-limit 10 \
    "$RUNNER" $Z/kw-gpu-s2 --device gpu --inputs $R/kw-in --iters 1 --warmup 0 \
    > "$OUT/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
done
echo "=== (b) weight gradients alone $(date +%T)"
timeout 150 python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa base=$R/base zero=$Z/zero > /tmp/wgrad-align.txt 2>&1
echo "rc=$?"; cat /tmp/wgrad-align.txt
echo "=== (c) check layers $(date +%T), $(left) s left"
for s in qwen3-30b-a3b mixtral-8x7b; do
  Q=.art/f36/check/gpu/$s
  timeout 100 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --check-against .art/f36/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > /tmp/check-$s.log 2>&1
  echo "$s rc=$?"; grep -E "^check|FAIL|d_x |d_w_" /tmp/check-$s.log | head -8
done
echo "=== (c) qwen3-30b-a3b backward profile $(date +%T)"
timeout 60 "$RUNNER" .art/f36/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd \
  --iters 20 --warmup 3 --profile > "$OUT/profile-qwen3-f36.txt" 2>&1
echo "rc=$?"; grep -E "^entry .* median|weight_grad|\(sum\)" "$OUT/profile-qwen3-f36.txt"
echo "=== (d) bench/fp8-layer.sh $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=qwen3-30b-a3b,mixtral-8x7b RUNNER_TIMEOUT_S=90 \
  FP8_VARIANT_ART=.art/f36cg/gpu FP8_VARIANT_LABEL="FP8 + combine-grad fusion" \
  timeout "$(( $(left) - 150 ))" bench/fp8-layer.sh .art/b36/gpu .art/f36/gpu /tmp/fp8-a
echo "rc=$?"; cp /tmp/fp8-a/fp8.md "$OUT"/fp8-qwen3-mixtral.md 2>/dev/null
echo "=== (d) dsv3-1gpu balanced $(date +%T), $(left) s left"
if [ "$(left)" -gt 140 ]; then
  MOE_RUNNER=$RUNNER BENCH_SHAPES=dsv3-1gpu BENCH_ROUTINGS=balanced BENCH_REPS=10 \
    RUNNER_TIMEOUT_S=150 timeout "$(( $(left) - 5 ))" \
    bench/fp8-layer.sh .art/b36/gpu .art/f36/gpu /tmp/fp8-dsv3
  echo "rc=$?"; cp /tmp/fp8-dsv3/fp8.md "$OUT"/fp8-dsv3-1gpu.md 2>/dev/null
else
  echo "skip: $(left) s left"
fi
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
