#!/usr/bin/env bash
# Device call 3 (one H200). .art/w1: main 32095ed; .art/w3: main cf7b4b9
# (scales staged, every consumer thread releasing the stage); .art/w3z:
# cf7b4b9 + the zeroing without reads (branch wip-zero-without-read), kw only.
# (1) the FP8 GEMM checks against the CPU on w3 (and w3z's kw);
# (2) racecheck, hazard reports summarised here (racecheck-summary.txt), on
#     the persistent FP8 weight-gradient cases at 2 stages: w1, w3, w3z;
# (3) the FP8 blockwise GEMMs alone, w1 against w3 (moe-runner medians);
# (4) qwen3-30b-a3b's FP8 weight-input check layer (w3/fw) against the CPU;
# (5) ncu of w3's mixtral fc1 FP8 weight gradient.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer
N=.art/w3
mkdir -p "$OUT/logs"
echo "=== (1) checks $(date +%T)"
check() { # label artifact inputs cpu
  timeout 120 "$RUNNER" "$2" --device gpu --inputs "$3" --iters 1 --warmup 0 --check-against "$4" \
    > "$OUT/logs/check-$1.log" 2>&1
  echo "--- $1 rc=$? $(grep -c PASS "$OUT/logs/check-$1.log") PASS, $(grep -c FAIL "$OUT/logs/check-$1.log") FAIL"
}
check w3-kw $N/kw/gpu $N/kw/in $N/kw/cpu
check w3-kw-s2 $N/kw/gpu-s2 $N/kw/in $N/kw/cpu
check w3-mm-generated $N/kf/mm-generated $N/kf/mm-in $N/kf/mm-cpu
check w3-wg-generated $N/kf/wg-generated $N/kf/wg-in $N/kf/wg-cpu
check w3z-kw .art/w3z/kw/gpu .art/w3z/kw/in .art/w3z/kw/cpu
check w3z-kw-s2 .art/w3z/kw/gpu-s2 .art/w3z/kw/in .art/w3z/kw/cpu
echo "=== (2) racecheck $(date +%T)"
for v in w1:.art/w1/kw/gpu w3:$N/kw/gpu-s2 w3z:.art/w3z/kw/gpu-s2; do
  log="$OUT/logs/racecheck-${v%%:*}.log"
  timeout 100 "$SAN" --tool racecheck --racecheck-report hazard --print-limit 200 --error-exitcode 86 \
    "$RUNNER" ${v#*:} --device gpu --inputs $N/kw/in --entry wg_bw_persistent_ragged \
    --entry wg_bw_persistent_aligned --iters 1 --warmup 0 > "$log" 2>&1
  echo "--- racecheck ${v%%:*} rc=$? $(grep -E 'RACECHECK SUMMARY' "$log")"
  grep -E "^========= +(Error|Warning)|^========= +(Write|Read) .*access" "$log" \
    | sed -E 's/thread \([0-9,]+\)/thread (.)/g; s/block \([0-9,]+\)/block (.)/g; s/0x[0-9a-f]{8,}/ADDR/g' \
    | sort | uniq -c | sort -rn | head -12
done | tee "$OUT/racecheck-summary.txt"
echo "=== (3) FP8 GEMMs $(date +%T)"
python3 - "$OUT/in" <<'PY'
import os, sys
sys.path.insert(0, "bench"); sys.path.insert(0, "scripts")
import npy
from peers import SHAPES, group_sizes
for name, T, H, F, E, K in SHAPES:
    for gemm in ("fc1", "fc2"):
        for pas in ("fwd", "dgrad", "wgrad"):
            entry = "%s_%s_%s" % (gemm, pas, name.replace("-", "_"))
            npy.write(os.path.join(sys.argv[1], entry, "sizes.npy"), "<i4", [E],
                      group_sizes(T * K, E, False))
PY
for shape in mixtral_8x7b qwen3_30b_a3b; do
  for v in old:.art/w1/gg/fp8b new:$N/gg/fp8b; do
    timeout 80 "$RUNNER" ${v#*:} --device gpu --inputs "$OUT/in" --iters 20 --warmup 3 \
      --entry fc1_wgrad_$shape --entry fc2_wgrad_$shape --entry fc1_fwd_$shape --entry fc2_fwd_$shape \
      --entry fc1_dgrad_$shape 2>&1 | grep -E "^entry .* median" | sed "s/^/${v%%:*} /"
  done
done | tee "$OUT/fp8-gemms-run3.txt"
echo "=== (4) qwen3 FP8 weight-input check layer $(date +%T)"
( E2E_EXAMPLES="qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$N/fw \
  E2E_TIMEOUT_S=130 timeout 150 scripts/gpu-e2e.sh "$OUT/logs/e2e-fw" > "$OUT/logs/e2e-fw-run3.log" 2>&1
  echo "e2e rc=$?" )
grep -E "entry .* on gpu|FAIL|failed|outputs|rc=" "$OUT/logs/e2e-fw/check-qwen3-30b-a3b.log" 2>/dev/null | head -20
tail -3 "$OUT/logs/e2e-fw-run3.log"
echo "=== (5) ncu $(date +%T)"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
timeout 120 "$NCU" --clock-control none -k regex:grouped --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters \
  --section MemoryWorkloadAnalysis -f -o "$OUT/logs/fp8-wgrad-w3" "$RUNNER" $N/gg/fp8b --device gpu \
  --entry fc1_wgrad_mixtral_8x7b --inputs "$OUT/in" --iters 1 --warmup 1 > "$OUT/logs/ncu.log" 2>&1
echo "ncu rc=$?"
"$NCU" -i "$OUT/logs/fp8-wgrad-w3.ncu-rep" --page details > "$OUT/logs/fp8-wgrad-w3-details.txt" 2>&1
grep -E "Duration|Throughput|Tensor|Eligible|Issued Ipc" "$OUT/logs/fp8-wgrad-w3-details.txt" | head -16
"$NCU" -i "$OUT/logs/fp8-wgrad-w3.ncu-rep" --page source --csv --print-source sass \
  > "$OUT/logs/fp8-wgrad-w3-sass.csv" 2>&1
rm -f "$OUT/logs"/*.ncu-rep
tar czf "$OUT/logs-run3.tgz" -C "$OUT/logs" .
rm -rf "$OUT/logs" "$OUT/in" "$OUT/build.log"
echo "=== end $(date +%T)"
