#!/usr/bin/env bash
# Device call 3 (one H200), main 75c9c0a's artifacts:
# (1) run2's racecheck hazards in the FP8 blockwise weight gradients: one
#     racecheck run with per-hazard reports on test/gpu's FP8 wgrad chain
#     (.art/gs7/fp8wgrad, 2 stages), and the SASS of the reported kernels
#     (.art/cub: cubins cut out of the artifacts' .so files);
# (2) FP8 weights as inputs (moe-fp8-weight-inputs), full size, profiled:
#     bf16 (.art/bq), FP8 blockwise (.art/f8q qwen3, .art/f8m mixtral) and
#     FP8 blockwise with weight inputs (.art/f8w; moe-runner chains
#     moe_layer_quantize_weights, whose own time is its entry's);
# (3) dsv3-1gpu's racecheck (run2 timed out at 190 s), beside gpu-e2e of the
#     cuBLASLt-free build (.art/gs6: small, qwen3, dsv3-1gpu, the GEMM cases,
#     NaN and adversarial layers) and of the FP8 weight-input layer (.art/f8w
#     qwen3-30b-a3b's check layer against the CPU).
set -u
cd "$(dirname "$0")/../../.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer
echo "=== (1) FP8 wgrad racecheck, hazard reports $(date +%T)"
timeout 90 "$SAN" --tool racecheck --racecheck-report hazard --print-limit 40 --error-exitcode 86 \
  "$RUNNER" .art/gs7/fp8wgrad/gpu-generated --inputs .art/gs7/fp8wgrad/in --entry wgrad_chain_blockwise \
  --device gpu --iters 1 --warmup 0 > "$OUT/racecheck-fp8wgrad.log" 2>&1
echo "rc=$? $(grep -E 'RACECHECK SUMMARY' "$OUT/racecheck-fp8wgrad.log")"
for c in .art/cub/*.cubin; do
  /usr/local/cuda/bin/cuobjdump -sass "$c" > "$OUT/sass-$(basename "$c" .cubin).txt" 2>&1
done
gzip -f "$OUT"/sass-*.txt
echo "=== (2) profiles $(date +%T)"
prof() { # label artifact
  timeout 90 "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median" "$OUT/profile-$1.txt"
}
prof qwen3-bf16 .art/bq/gpu/qwen3-30b-a3b
prof qwen3-fp8 .art/f8q/gpu/qwen3-30b-a3b
prof qwen3-fp8-weight-inputs .art/f8w/gpu/qwen3-30b-a3b
prof mixtral-bf16 .art/bq/gpu/mixtral-8x7b
prof mixtral-fp8 .art/f8m/gpu/mixtral-8x7b
prof mixtral-fp8-weight-inputs .art/f8w/gpu/mixtral-8x7b
echo "=== (3) dsv3 racecheck + gpu-e2e $(date +%T)"
( BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs7 SANITIZE_TOOLS=racecheck SANITIZE_ARTIFACTS=dsv3-1gpu \
  SANITIZE_SHARED_ARTIFACTS=dsv3-1gpu SANITIZE_LARGE_TIMEOUT_S=330 \
  timeout 350 scripts/gpu-sanitize.sh "$OUT/race-dsv3" > "$OUT/racecheck-dsv3-run3.log" 2>&1
  echo "dsv3 racecheck rc=$?" > "$OUT/race.rc" ) &
sleep 100  # its 22 GB of weights are made on the host first
( E2E_EXAMPLES="small qwen3-30b-a3b dsv3-1gpu" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs6 \
  E2E_TIMEOUT_S=220 timeout 240 scripts/gpu-e2e.sh "$OUT/e2e-gs6" > "$OUT/e2e-gs6-run3.log" 2>&1
  echo "gs6 e2e rc=$?" > "$OUT/e2e-gs6.rc" ) &
( E2E_EXAMPLES="qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/f8w \
  E2E_TIMEOUT_S=220 timeout 240 scripts/gpu-e2e.sh "$OUT/e2e-f8w" > "$OUT/e2e-f8w-run3.log" 2>&1
  echo "f8w e2e rc=$?" > "$OUT/e2e-f8w.rc" ) &
wait
cat "$OUT"/*.rc
sed -n '/=== summary/,$p' "$OUT/racecheck-dsv3-run3.log"
for r in gs6 f8w; do echo "--- $r"; grep -E "^---|FAIL|^check:|near-ties|rc=" "$OUT/e2e-$r-run3.log" | head -30; done
tar czf "$OUT/logs-run3.tgz" -C "$OUT" race-dsv3 e2e-gs6 e2e-f8w 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/race-dsv3" "$OUT/e2e-gs6" "$OUT/e2e-f8w" "$OUT"/*.rc
echo "=== end $(date +%T)"
