#!/usr/bin/env bash
# Device call 3 (one H200): where a generated grouped GEMM tile's time goes.
# ncu (--clock-control none) on the generated kernels of qwen3-30b-a3b's
# fc2 forward (K = 768: 12 k-steps a tile, 517 TFLOP/s in run2) and fc1
# forward (K = 2048: 32 k-steps, 610 TFLOP/s), .art/gg/gen-rowmajor (the
# tile order both keep), balanced sizes: speed of light, warp states,
# scheduler, and the SASS instructions with the most stall samples.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
python3 - "$OUT/in" <<'PY'
import os, sys
sys.path.insert(0, "bench"); sys.path.insert(0, "scripts")
import npy
from peers import group_sizes
for entry in ("fc2_fwd_qwen3_30b_a3b", "fc1_fwd_qwen3_30b_a3b"):
    s = group_sizes(16384 * 8, 128, False)
    npy.write(os.path.join(sys.argv[1], entry, "sizes.npy"), "<i4", [len(s)], s)
PY
for entry in fc2_fwd_qwen3_30b_a3b fc1_fwd_qwen3_30b_a3b; do
  echo "=== $entry $(date +%T)"
  timeout 200 "$NCU" --clock-control none -k regex:grouped --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section SourceCounters --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    -f -o "$OUT/$entry" "$RUNNER" .art/gg/gen-rowmajor --device gpu --entry "$entry" \
    --inputs "$OUT/in" --iters 1 --warmup 1 > "$OUT/$entry-ncu.log" 2>&1
  echo "ncu rc=$?"; tail -3 "$OUT/$entry-ncu.log"
  "$NCU" -i "$OUT/$entry.ncu-rep" --page details > "$OUT/$entry-details.txt" 2>&1
  grep -E "Duration|Throughput|Pipe|Issue|Stall|Active Warps|Eligible|No Eligible|Tensor|L2 Hit|Executed Ipc" \
    "$OUT/$entry-details.txt" | head -60
  "$NCU" -i "$OUT/$entry.ncu-rep" --page source --csv --print-source sass > "$OUT/$entry-sass.csv" 2>&1
  python3 - "$OUT/$entry-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = None
for i, r in enumerate(rows):
    if any("Source" == c for c in r):
        head, body = r, rows[i + 1:]
        break
if head is None:
    print("no source table:", rows[:3]); sys.exit()
print("columns:", [c for c in head][:30])
src = head.index("Source")
cols = [c for c in head if "Sampling" in c and "All" in c] or [c for c in head if "Sampling" in c]
k = head.index(cols[0])
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[k]) for r in body if len(r) > k)
print("stall samples (%s): %d" % (cols[0], total))
for r in sorted(body, key=lambda r: -num(r[k]) if len(r) > k else 0)[:45]:
    print("%6.2f%%  %s" % (100 * num(r[k]) / max(total, 1), r[src][:110]))
PY
done
gzip "$OUT"/*-sass.csv 2>/dev/null
rm -rf "$OUT/in" "$OUT/build.log" "$OUT"/*.ncu-rep
echo "=== end $(date +%T)"
