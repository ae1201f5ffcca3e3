#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts compiled on the CPU machine:
# .art/n-main: main 9c41ead (= 57645d9 for the compiler); .art/n-zero: branch
# wip-cheap-zeroing (7067f5f, the K-major reduction's zeroing by a byte mask
# computed once a thread); .art/n-a128: qwen3-30b-a3b with permute align=128
# (no k-step straddles two groups), FP8 weight inputs and bf16.
# (1) test/gpu's FP8 weight-gradient cases (kw) against the CPU, main and the
#     branch, default stages and 2 stages (m192 / N=200 and the 2-stage
#     build never ran on a GPU);
# (2) memcheck on main's kw (800494d: expect_tx before the scale copies),
#     racecheck hazards on the persistent cases at 2 stages, main and branch;
# (3) the full-size layers profiled in one run: bf16, FP8 weight inputs on
#     main, on the branch and with align=128;
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer
mkdir -p "$OUT/logs"; L="$OUT/logs"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) kw checks $(date +%T)"
check() { # label artifact inputs cpu
  timeout 120 "$RUNNER" "$2" --device gpu --inputs "$3" --iters 1 --warmup 0 --check-against "$4" \
    > "$L/check-$1.log" 2>&1
  echo "--- $1 rc=$? $(grep -c PASS "$L/check-$1.log") PASS, $(grep -c FAIL "$L/check-$1.log") FAIL"
  grep -E "FAIL|^check:" "$L/check-$1.log" | head -12
}
for v in n-main n-zero; do
  check kw-$v .art/$v/kw/gpu .art/n-main/kw/in .art/n-main/kw/cpu
  check kw-s2-$v .art/$v/kw/gpu-s2 .art/n-main/kw/in .art/n-main/kw/cpu
done
echo "=== (2) sanitizers $(date +%T)"
timeout 100 "$SAN" --tool memcheck --error-exitcode 86 "$RUNNER" .art/n-main/kw/gpu --device gpu \
  --inputs .art/n-main/kw/in --iters 1 --warmup 0 > "$L/memcheck-kw.log" 2>&1
echo "memcheck kw main rc=$? $(grep -E 'ERROR SUMMARY' "$L/memcheck-kw.log")"
for v in n-main n-zero; do
  timeout 100 "$SAN" --tool racecheck --racecheck-report hazard --print-limit 20 --error-exitcode 86 \
    "$RUNNER" .art/$v/kw/gpu-s2 --device gpu --inputs .art/n-main/kw/in --entry wg_bw_persistent_ragged \
    --entry wg_bw_persistent_aligned --iters 1 --warmup 0 > "$L/racecheck-$v.log" 2>&1
  echo "racecheck $v rc=$? $(grep -E 'RACECHECK SUMMARY' "$L/racecheck-$v.log")"
done
echo "=== (3) layers $(date +%T)"
prof() { # label artifact
  timeout 70 "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$L/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median|weight_grad|grouped_matmul  " "$L/profile-$1.txt" | head -24
}
prof qwen3-bf16 .art/n-main/bq/gpu/qwen3-30b-a3b
prof qwen3-fp8w-main .art/n-main/fw/gpu/qwen3-30b-a3b
prof qwen3-fp8w-zero .art/n-zero/fw/gpu/qwen3-30b-a3b
prof qwen3-fp8w-a128 .art/n-a128/gpu/qwen3-30b-a3b-fp8w
prof qwen3-bf16-a128 .art/n-a128/gpu/qwen3-30b-a3b-bf16
prof mixtral-fp8w-main .art/n-main/fw/gpu/mixtral-8x7b
prof mixtral-fp8w-zero .art/n-zero/fw/gpu/mixtral-8x7b
cp "$L"/profile-*.txt "$OUT"/ 2>/dev/null
tar czf "$OUT/logs-run1.tgz" -C "$L" .
rm -rf "$L" "$OUT/build.log"
echo "=== end $(date +%T)"
