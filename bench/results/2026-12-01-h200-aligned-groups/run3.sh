#!/usr/bin/env bash
# Device call 3 (one H200; the session's last ~600 s): run2 lost its (b) and
# (c) to a pure-Python compare of 200M-element dumps, so here only timings:
# (a) bench/fp8-layer.sh at mixtral-8x7b (balanced, skewed) and seed-test
#     (balanced): bf16 (.art/b2), FP8 (.art/f2), FP8 with rows padded to 128
#     (.art/fa2), same call, same inputs;
# (b) while time is left, dsv3-1gpu's padded FP8 forward and backward alone
#     (its unpadded FP8 and bf16 rows: 2026-11-30-h200-fp8-dsv3-table).
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((530 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
run_bench() { # SHAPES ROUTINGS OUTDIR TIMEOUT
  MOE_RUNNER=$RUNNER BENCH_SHAPES=$1 BENCH_ROUTINGS=$2 RUNNER_TIMEOUT_S=90 \
    FP8_VARIANT_ART=.art/fa2/gpu FP8_VARIANT_LABEL="FP8, rows padded to 128" \
    timeout "$4" bench/fp8-layer.sh .art/b2/gpu .art/f2/gpu "$3"
  echo "rc=$?"
  FP8_VARIANT_LABEL="FP8, rows padded to 128" python3 bench/report_fp8.py "$3" > "$OUT/$(basename "$3").md" 2>&1
  cat "$OUT/$(basename "$3").md"
  mkdir -p "$OUT/$(basename "$3")" && cp "$3"/*.json "$3"/*.log "$OUT/$(basename "$3")/" 2>/dev/null
}
echo "=== (a) mixtral-8x7b $(date +%T), $(left) s left"
run_bench mixtral-8x7b balanced,skewed /tmp/fp8-mixtral "$(( $(left) - 180 ))"
echo "=== (a) seed-test $(date +%T), $(left) s left"
run_bench seed-test balanced /tmp/fp8-seed "$(( $(left) - 130 ))"
echo "=== (b) dsv3-1gpu padded FP8 $(date +%T), $(left) s left"
if [ "$(left)" -gt 100 ]; then
  timeout "$(( $(left) - 5 ))" "$RUNNER" .art/fa2/gpu/dsv3-1gpu --device gpu --entry moe_layer_fwd \
    --entry moe_layer_bwd --iters 5 --warmup 2 > "$OUT/dsv3-padded.txt" 2>&1
  echo "rc=$?"; grep -E "^entry .* median" "$OUT/dsv3-padded.txt"
else
  echo "skip: $(left) s left"
fi
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
