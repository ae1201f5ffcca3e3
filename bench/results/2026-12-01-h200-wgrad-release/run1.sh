#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts compiled on the MLIR machine:
#   .art/wr/{base,variant}  build.sh: the FP8 blockwise weight gradients of
#                           qwen3-30b-a3b and mixtral-8x7b alone, compiler
#                           ed6655e (base) and with one empty-barrier arrival
#                           a warp after the promotion (variant)
#   .art/wr/kw-*            test/gpu/fp8-weight-grad.test's cases (variant)
#   .art/wr/q-default, q-cg qwen3-30b-a3b FP8 blockwise with weight inputs
#                           (variant), without and with
#                           --fp8-combine-grad-quantize
#   .art/f34/qwen3          the same layer at 010f14b (last session)
# (a) the variant's FP8 weight gradients against the CPU (default, 2 stages);
# (b) the weight gradients alone on aligned, routed and skewed group sizes;
# (c) qwen3-30b-a3b's backward profiled: base, variant, variant + fusion;
# (d) memcheck + racecheck of (a)'s 2-stage build.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
A=.art/wr
echo "=== (a) FP8 weight gradients against the CPU $(date +%T)"
for v in kw-gpu kw-gpu-s2; do
  timeout 60 "$RUNNER" $A/$v --device gpu --inputs $A/kw-in --iters 1 --warmup 0 \
    --check-against $A/kw-cpu > "$OUT/check-$v.log" 2>&1
  echo "$v rc=$? $(grep -c PASS "$OUT/check-$v.log") PASS $(grep -c FAIL "$OUT/check-$v.log") FAIL"
done
echo "=== (b) weight gradients alone $(date +%T)"
timeout 240 python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa base=$A/base variant=$A/variant | tee "$OUT/wgrad-align.md"
echo "=== (c) qwen3 backward profiles $(date +%T)"
for v in .art/f34/qwen3 $A/q-default $A/q-cg; do
  n=$(basename $v)
  timeout 60 "$RUNNER" $v --device gpu --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/profile-$n.txt" 2>&1
  echo "--- $v rc=$?"; grep -E "^entry .* median|combine_grad|quantize_with|weight_grad|\(sum\)" "$OUT/profile-$n.txt"
done
echo "=== (d) sanitizers $(date +%T)"
SAN=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 60 $SAN --tool $tool --kernel-name kns=__moe_entry_ --print-limit 10 \
    "$RUNNER" $A/kw-gpu-s2 --device gpu --inputs $A/kw-in --iters 1 --warmup 0 \
    > "$OUT/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
