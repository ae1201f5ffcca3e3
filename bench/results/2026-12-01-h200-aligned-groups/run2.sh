#!/usr/bin/env bash
# Device call 2 (one H200): FP8 layers with every expert's rows padded to a
# multiple of 128 (moe-expand-layer{align=128}, scripts/gpu-artifacts.sh
# MOE_LAYER_ALIGN=128) at seed-test and mixtral-8x7b, whose R needed the
# rounding up to a multiple of 128 (R = T·K + 8·127 is not). Artifacts
# compiled on the MLIR machine with this compiler:
#   .art/b2    bf16 (seed-test, mixtral-8x7b)
#   .art/f2    FP8 blockwise, FP8 weight inputs (the same two)
#   .art/fa2   the same with MOE_LAYER_ALIGN=128 (all four shapes)
#   .art/f1    run1's FP8 (qwen3-30b-a3b, dsv3-1gpu; compiler b8263d6)
# (a) seed-test's padded FP8 check layer forward and backward vs the CPU;
# (b) qwen3-30b-a3b's and dsv3-1gpu's padded FP8 check layers against the
#     unpadded ones, both on the GPU (their CPU references take minutes with
#     the padding rows): --dump both, scripts/compare-dumps.py;
# (c) bench/fp8-layer.sh at mixtral-8x7b and seed-test: bf16, FP8, FP8 padded.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((560 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) seed-test padded check layer vs CPU $(date +%T)"
Q=.art/fa2/check/gpu/seed-test
timeout 90 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --check-against .art/fa2/check/cpu/seed-test --reuse-fp8-weights \
  $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-seed-test-padded.log" 2>&1
echo "rc=$?"; grep -E "^check|FAIL|PASS|near-ties" "$OUT/check-seed-test-padded.log" | head -30
echo "=== (b) padded vs unpadded check layers, both on the GPU $(date +%T)"
for s in qwen3-30b-a3b dsv3-1gpu; do
  for v in f1 fa2; do
    rm -rf /tmp/dump-$v-$s
    timeout 60 "$RUNNER" .art/$v/check/gpu/$s --device gpu --entry moe_layer \
      --entry moe_layer_bwd --seed 5 --warmup 0 --iters 1 --dump /tmp/dump-$v-$s \
      > /tmp/run-$v-$s.log 2>&1
    echo "$s $v rc=$?"
  done
  python3 scripts/compare-dumps.py /tmp/dump-f1-$s /tmp/dump-fa2-$s --default-tol 0 \
    --tol "d_w_*=3e-2" 2>&1 | grep -E "/(out|aux_loss|d_x|d_router_weight|d_w_\w+) " \
    | tee "$OUT/padded-vs-unpadded-$s.txt"
done
echo "=== (c) bench/fp8-layer.sh mixtral-8x7b, seed-test $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=mixtral-8x7b,seed-test RUNNER_TIMEOUT_S=100 \
  FP8_VARIANT_ART=.art/fa2/gpu FP8_VARIANT_LABEL="FP8, rows padded to 128" \
  timeout "$(( $(left) - 20 ))" bench/fp8-layer.sh .art/b2/gpu .art/f2/gpu /tmp/fp8-m
echo "rc=$?"
FP8_VARIANT_LABEL="FP8, rows padded to 128" python3 bench/report_fp8.py /tmp/fp8-m > "$OUT/fp8-mixtral-seed.md" 2>&1
cat "$OUT/fp8-mixtral-seed.md"
mkdir -p "$OUT/fp8-m" && cp /tmp/fp8-m/*.json /tmp/fp8-m/*.log "$OUT/fp8-m/" 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
