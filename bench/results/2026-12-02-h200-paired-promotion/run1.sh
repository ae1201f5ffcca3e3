#!/usr/bin/env bash
# Device call 1 (one H200): blockwise FP8 weight gradients with paired
# promotion (GroupedGemmConfig::pairedPromotion). Artifacts from build.sh
# (.art, this session's compiler):
# (a) test/gpu/Inputs/fp8-weight-grad.mlir's cases against the CPU: paired
#     (default stages, 2 stages, 8 CTAs) and one step at a time;
# (b) the weight gradients alone, one step at a time against paired, on
#     aligned, routed and skewed group sizes (the 2026-12-01 wgrad_align.py);
# (c) compute-sanitizer memcheck and racecheck on (a)'s sanitizer builds.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
A=.art
echo "=== (a) FP8 weight-gradient cases against the CPU $(date +%T)"
for v in gpu gpu-s2 gpu-c8 gpu-unpaired; do
  timeout 60 "$RUNNER" $A/kw/$v --device gpu --inputs $A/kw/in --iters 1 --warmup 0 \
    --check-against $A/kw/cpu > "$OUT/kw-$v.log" 2>&1
  echo "$v rc=$? $(grep -c PASS "$OUT/kw-$v.log") PASS $(grep -c FAIL "$OUT/kw-$v.log") FAIL"
done
grep -E "PASS|FAIL" "$OUT/kw-gpu.log" | head -12
echo "=== (b) weight gradients alone $(date +%T), $(left) s left"
timeout $(( $(left) - 90 )) python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa unpaired=$A/wg/unpaired paired=$A/wg/paired > "$OUT/wgrad-alone.md" 2>&1
echo "rc=$?"; cat "$OUT/wgrad-alone.md"
echo "=== (c) sanitizers $(date +%T), $(left) s left"
SAN=/usr/local/cuda/bin/compute-sanitizer
for spec in memcheck:gpu-san racecheck:gpu-race; do
  tool=${spec%%:*} v=${spec#*:}
  timeout 60 $SAN --tool $tool --kernel-name kns=__moe_entry_ --print-limit 10 \
    "$RUNNER" $A/kw/$v --device gpu --inputs $A/kw/in --iters 1 --warmup 0 \
    --check-against $A/kw/cpu > "$OUT/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tr '\n' ' ') $(grep -c PASS "$OUT/sanitize-$tool.log") PASS"
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
