#!/usr/bin/env bash
# Device call 4 (one H200): racecheck and synccheck on the generated grouped
# GEMM cases built with 2 pipeline stages and thread-stored tiles (.art/rc:
# moe-compile --gemm=generated --gemm-max-stages=2 --gemm-tma-store=false
# test/gpu/Inputs/generated-grouped-gemm.mlir), to see whether the launch
# failures under those tools (3 stages: call 3) follow the shared memory a
# kernel asks for; then the same artifact against the CPU without a tool.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
CS=/usr/local/cuda/bin/compute-sanitizer
timeout 60 $RUNNER .art/rc/gpu2 --device gpu --inputs .art/rc/in --iters 1 --warmup 0 \
  --check-against .art/rc/cpu > "$OUT/check.log" 2>&1
echo "check rc=$? $(grep -E '^check:' "$OUT/check.log")"
for tool in racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 86 $RUNNER .art/rc/gpu2 --device gpu \
    --inputs .art/rc/in --iters 1 --warmup 0 > "$OUT/$tool.log" 2>&1
  echo "$tool rc=$? entries=$(grep -c '^entry' "$OUT/$tool.log")"
  grep -E "SUMMARY|error:|hazard" "$OUT/$tool.log" | head -5
done
rm -f "$OUT/build.log"
