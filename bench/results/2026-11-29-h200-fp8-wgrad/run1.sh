#!/usr/bin/env bash
# Device call 1 (one H200), artifacts of build.sh from main 32095ed (.art/w1):
# where the FP8 blockwise weight gradient's time goes. mixtral-8x7b's three
# blockwise weight gradients take 4.4-4.6 ms each (sanitize-full run3), the
# bf16 cuBLASLt ones 2.9: (1) bench/generated_gemm.py on mixtral-8x7b and
# qwen3-30b-a3b, fwd and wgrad, bf16 generated vs FP8 blockwise generated vs
# torch, balanced; (2) ncu (--clock-control none) of the FP8 wgrad and FP8
# fwd of mixtral's fc1 and the bf16 generated wgrad: speed of light, warp
# states, the SASS lines with the most stall samples.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
W=.art/w1
echo "=== (1) generated_gemm $(date +%T)"
timeout 240 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated $W/gg/bf16 \
  --fp8-blockwise $W/gg/fp8b --out "$OUT/gg" --iters 20 --warmup 3 --passes fwd,wgrad \
  --routings balanced --shapes mixtral-8x7b,qwen3-30b-a3b > "$OUT/gemm-run1.log" 2>&1
echo "rc=$?"; tail -30 "$OUT/gemm-run1.log"
cp "$OUT/gg/generated_gemm.json" "$OUT/generated_gemm-run1.json" 2>/dev/null
echo "=== (2) ncu $(date +%T)"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
python3 - "$OUT/in" <<'PY'
import os, sys
sys.path.insert(0, "bench"); sys.path.insert(0, "scripts")
import npy
from peers import group_sizes
for entry in ("fc1_wgrad_mixtral_8x7b", "fc1_fwd_mixtral_8x7b"):
    s = group_sizes(8192 * 2, 8, False)
    npy.write(os.path.join(sys.argv[1], entry, "sizes.npy"), "<i4", [len(s)], s)
PY
ncu_one() { # label artifact entry
  timeout 150 "$NCU" --clock-control none -k regex:grouped --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section SourceCounters --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    -f -o "$OUT/$1" "$RUNNER" "$2" --device gpu --entry "$3" \
    --inputs "$OUT/in" --iters 1 --warmup 1 > "$OUT/$1-ncu.log" 2>&1
  echo "--- $1 ncu rc=$?"; tail -2 "$OUT/$1-ncu.log"
  "$NCU" -i "$OUT/$1.ncu-rep" --page details > "$OUT/$1-details.txt" 2>&1
  grep -E "Duration|Throughput|Pipe|Issue|Stall|Active Warps|Eligible|No Eligible|Tensor|L2 Hit|Executed Ipc|Registers" \
    "$OUT/$1-details.txt" | head -40
  "$NCU" -i "$OUT/$1.ncu-rep" --page source --csv --print-source sass > "$OUT/$1-sass.csv" 2>&1
  python3 - "$OUT/$1-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = None
for i, r in enumerate(rows):
    if any("Source" == c for c in r):
        head, body = r, rows[i + 1:]
        break
if head is None:
    print("no source table:", rows[:3]); sys.exit()
src = head.index("Source")
cols = [c for c in head if "Sampling" in c and "All" in c] or [c for c in head if "Sampling" in c]
k = head.index(cols[0])
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[k]) for r in body if len(r) > k)
print("stall samples (%s): %d" % (cols[0], total))
for r in sorted(body, key=lambda r: -num(r[k]) if len(r) > k else 0)[:30]:
    print("%6.2f%%  %s" % (100 * num(r[k]) / max(total, 1), r[src][:110]))
PY
}
ncu_one fp8-wgrad $W/gg/fp8b fc1_wgrad_mixtral_8x7b
ncu_one fp8-fwd $W/gg/fp8b fc1_fwd_mixtral_8x7b
ncu_one bf16-wgrad $W/gg/bf16 fc1_wgrad_mixtral_8x7b
gzip "$OUT"/*-sass.csv 2>/dev/null
tar czf "$OUT/ncu-run1.tgz" -C "$OUT" $(cd "$OUT" && ls *-details.txt *-sass.csv.gz *-ncu.log 2>/dev/null)
rm -rf "$OUT/in" "$OUT/gg" "$OUT/build.log" "$OUT"/*.ncu-rep "$OUT"/*-details.txt "$OUT"/*-sass.csv.gz "$OUT"/*-ncu.log
echo "=== end $(date +%T)"
