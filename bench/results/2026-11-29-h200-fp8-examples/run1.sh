#!/usr/bin/env bash
# Device call 1 of the sixteenth session (one H200).
#   .art/gv3/s{4,5}  bench/generated_gemm.py's entries on wip-box-epilogue
#                    with the 32-bit stage index (16cc749), 4 and 5 stages
#   .art/gv/gen      the same entries at main 8adf717 (4 stages)
#   .art/f8b/check   MOE_FP8_RECIPE=blockwise CHECK_ONLY=1 gpu-artifacts.sh
#   .art/f8d/check   MOE_FP8_RECIPE=delayed   CHECK_ONLY=1 gpu-artifacts.sh
#   .art/f8q/gpu     qwen3-30b-a3b, blockwise, full size (profile)
#   .art/gs4, gs5    last session's sanitizer builds (3 and 2 stages)
# The runner is built from this tree: its cuBLASLt workspaces are zeroed
# once when allocated (the initcheck experiment below).
set -u
cd "$(dirname "$0")/../../.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer

echo "=== 1. generated GEMMs: 5 vs 4 stages with 32-bit stage index vs main $(date +%T)"
timeout 70 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gv3/s5 \
  --variant s4=.art/gv3/s4 --variant main=.art/gv/gen --out "$OUT/gemm" \
  --shapes qwen3-30b-a3b --passes fwd,dgrad --routings balanced \
  --iters 10 --warmup 2 > "$OUT/gemm-run1.log" 2>&1
echo "generated_gemm rc=$?"
sed -n '/^gemm  *routing/,$p' "$OUT/gemm-run1.log" | head -12

echo "=== 2. FP8 blockwise qwen3-30b-a3b full size, profile $(date +%T)"
timeout 60 "$RUNNER" .art/f8q/gpu/qwen3-30b-a3b --device gpu --iters 10 --warmup 2 --profile \
  > "$OUT/profile-fp8-qwen3-run1.txt" 2>&1
echo "profile rc=$?"
grep -E "median|\(sum\)" "$OUT/profile-fp8-qwen3-run1.txt"

echo "=== 3. FP8 checks (blockwise, delayed) beside sanitizer runs $(date +%T)"
( E2E_EXAMPLES="seed-test mixtral-8x7b qwen3-30b-a3b dsv3-1gpu" BUILD_GPU=/tmp/rb \
  MOE_ARTIFACTS_ROOT=.art/f8b E2E_TIMEOUT_S=230 timeout 240 scripts/gpu-e2e.sh "$OUT/e2e-blockwise" \
  > "$OUT/e2e-blockwise-run1.log" 2>&1; echo "blockwise rc=$?" > "$OUT/e2e-blockwise.rc" ) &
p1=$!
( E2E_EXAMPLES="seed-test mixtral-8x7b qwen3-30b-a3b dsv3-1gpu" BUILD_GPU=/tmp/rb \
  MOE_ARTIFACTS_ROOT=.art/f8d E2E_TIMEOUT_S=230 timeout 240 scripts/gpu-e2e.sh "$OUT/e2e-delayed" \
  > "$OUT/e2e-delayed-run1.log" 2>&1; echo "delayed rc=$?" > "$OUT/e2e-delayed.rc" ) &
p2=$!
san() { # name limit tool args...
  local name=$1 limit=$2 tool=$3; shift 3
  timeout --kill-after=10 "$limit" "$SAN" --tool "$tool" --error-exitcode 86 --print-limit 20 "$@" \
    > "$OUT/san-$name.log" 2>&1
  echo "  $name: rc=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY|Internal Sanitizer Error|Uninitialized|Unknown Error' "$OUT/san-$name.log")"
}
# initcheck with zeroed cuBLASLt workspaces (last session: splitKreduce reads)
sp=()
san mixtral-initcheck-zeroed-ws 200 initcheck "$RUNNER" .art/gs4/check/gpu/mixtral-8x7b --entry moe_layer_bwd \
  --device gpu --iters 1 --warmup 0 --uninitialized-outputs & sp+=($!)
# memcheck of mixtral at 3 stages (repro) and at 2 stages
san mixtral-memcheck-3stage 200 memcheck "$RUNNER" .art/gs4/check/gpu/mixtral-8x7b --entry moe_layer_bwd --device gpu --iters 1 --warmup 0 & sp+=($!)
san mixtral-memcheck-2stage 200 memcheck "$RUNNER" .art/gs5/check/gpu/mixtral-8x7b --entry moe_layer_bwd --device gpu --iters 1 --warmup 0 & sp+=($!)
wait "${sp[@]}"
wait $p1 $p2
cat "$OUT/e2e-blockwise.rc" "$OUT/e2e-delayed.rc"
for r in blockwise delayed; do
  echo "--- $r"; grep -E "^---|PASS|FAIL|rel|near-ties|error" "$OUT/e2e-$r-run1.log" | head -60
done

echo "=== 4. racecheck, one at a time (2-stage build) $(date +%T)"
san small-race-filter 30 racecheck --kernel-name kns=__moe_entry_ "$RUNNER" .art/gs5/check/gpu/small --device gpu --iters 1 --warmup 0
san small-race-nofilter 30 racecheck "$RUNNER" .art/gs5/check/gpu/small --device gpu --iters 1 --warmup 0
san small-fwd-race-nofilter 30 racecheck "$RUNNER" .art/gs5/check/gpu/small --entry moe_layer_fwd --device gpu --iters 1 --warmup 0
san gemm-race-filter 60 racecheck --kernel-name kns=__moe_entry_ "$RUNNER" .art/gs5/gemm/gpu --inputs .art/gs5/gemm/in --device gpu --iters 1 --warmup 0
san small-race-filter-nogemm 30 racecheck --kernel-name kns=__moe_entry_ --kernel-name-exclude kns=grouped "$RUNNER" .art/gs5/check/gpu/small --device gpu --iters 1 --warmup 0
for f in "$OUT"/san-*.log; do echo "--- $f"; grep -v "^=========     \|Host Frame" "$f" | head -8; done
tar czf "$OUT/logs-run1.tgz" -C "$OUT" e2e-blockwise e2e-delayed $(cd "$OUT" && ls san-*.log) 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/e2e-blockwise" "$OUT/e2e-delayed" "$OUT"/san-*.log
echo "=== end $(date +%T)"
