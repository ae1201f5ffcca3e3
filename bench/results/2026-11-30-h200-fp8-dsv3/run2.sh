#!/usr/bin/env bash
# Device call 2 (one H200), main at the commit of moe-runner
# --reuse-fp8-weights (the compiler of .art/* is 92553e6's):
# 1. dsv3-1gpu's FP8 blockwise check layer (.art/f4) against the CPU,
#    forward and backward in one process (the bf16 weights are drawn once),
#    the reference on the checked run's FP8 weights (--reuse-fp8-weights;
#    run1 showed the CPU quantizing them took 157 s an entry), router
#    indices near-tie aware (scripts/near-tie-args.py). Host memory logged.
# 2. Meanwhile (the GPU is idle while the host draws 22 GB of weights):
#    the FP8 blockwise weight gradient alone (bench/generated_gemm.py's
#    entries, .art/gg) on group sizes that are multiples of 128 against the
#    same total with every group boundary moved off the 128-row blocks
#    (+-40 rows), and Zipf(1.2) sizes; then ncu of the shifted mixtral-8x7b
#    fc1 wgrad: where its time goes when k-steps straddle groups.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
start=$(date +%s)
mkdir -p "$OUT/logs"
(while true; do echo "$(($(date +%s) - start)) s: $(free -g | awk '/Mem:/ {print "used " $3 " GB, available " $7 " GB"}')"; sleep 10; done) > "$OUT/logs/memory.txt" &
mempid=$!
echo "=== (1) dsv3-1gpu FP8 checks, forward and backward $(date +%T)"
near=$(python3 scripts/near-tie-args.py .art/f4/check/gpu/dsv3-1gpu.json)
echo "near-ties: $near"
( timeout 545 "$RUNNER" .art/f4/check/gpu/dsv3-1gpu --device gpu --entry moe_layer_fwd \
    --entry moe_layer_bwd --check-against .art/f4/check/cpu/dsv3-1gpu --reuse-fp8-weights \
    $near --warmup 0 --iters 1 > "$OUT/logs/check-dsv3-fp8.log" 2>&1
  echo "rc=$? after $(($(date +%s) - start)) s" >> "$OUT/logs/check-dsv3-fp8.log" ) &
checks=$!
echo "=== (2) FP8 wgrad alone: aligned, shifted, Zipf group sizes $(date +%T)"
python3 - .art/gg/in <<'PY'
import os, sys
sys.path.insert(0, "bench"); sys.path.insert(0, "scripts")
import npy
from peers import group_sizes
for name, rows, E in (("mixtral_8x7b", 16384, 8), ("qwen3_30b_a3b", 131072, 128)):
    aligned = group_sizes(rows, E, False)
    shifted = [s + (40 if e % 2 == 0 else -40) for e, s in enumerate(aligned)]
    zipf = group_sizes(rows, E, True)
    for kind, s in (("aligned", aligned), ("shifted", shifted), ("zipf", zipf)):
        assert sum(s) == rows and min(s) >= 0
        for p in ("fc1", "fc2"):
            npy.write(os.path.join(sys.argv[1], kind, "%s_wgrad_%s" % (p, name), "sizes.npy"),
                      "<i4", [len(s)], s)
PY
for kind in aligned shifted zipf; do
  for e in fc1_wgrad_mixtral_8x7b fc2_wgrad_mixtral_8x7b fc1_wgrad_qwen3_30b_a3b fc2_wgrad_qwen3_30b_a3b; do
    line=$(timeout 60 "$RUNNER" .art/gg/fp8b --device gpu --entry $e --inputs .art/gg/in/$kind \
      --iters 20 --warmup 3 2>&1 | grep -E "median")
    echo "$kind $line"
  done
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for kind in aligned shifted; do
  timeout 120 "$NCU" --clock-control none -k regex:grouped --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters \
    -f -o "$OUT/logs/wgrad-$kind" "$RUNNER" .art/gg/fp8b --device gpu --entry fc1_wgrad_mixtral_8x7b \
    --inputs .art/gg/in/$kind --iters 1 --warmup 1 > "$OUT/logs/ncu-$kind.log" 2>&1
  echo "--- ncu $kind rc=$?"
  "$NCU" -i "$OUT/logs/wgrad-$kind.ncu-rep" --page details > "$OUT/logs/wgrad-$kind-details.txt" 2>&1
  grep -E "Duration|Throughput|Stall|Eligible|Issued Warp|Executed Ipc" "$OUT/logs/wgrad-$kind-details.txt" | head -24
  "$NCU" -i "$OUT/logs/wgrad-$kind.ncu-rep" --page source --csv --print-source sass > "$OUT/logs/wgrad-$kind-sass.csv" 2>&1
  python3 - "$OUT/logs/wgrad-$kind-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = None
for i, r in enumerate(rows):
    if "Source" in r:
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
for r in sorted(body, key=lambda r: -num(r[k]) if len(r) > k else 0)[:20]:
    print("%6.2f%%  %s" % (100 * num(r[k]) / max(total, 1), r[src][:110]))
PY
done
echo "=== waiting for the checks $(date +%T)"
wait $checks
kill $mempid
grep -vE "^  (res|out|aux|d_)" "$OUT/logs/check-dsv3-fp8.log" | grep -v "^moe-runner: \[" | head -60
grep "^moe-runner: \[" "$OUT/logs/check-dsv3-fp8.log"
cp "$OUT/logs/check-dsv3-fp8.log" "$OUT/logs/memory.txt" "$OUT"/
tar czf "$OUT/logs.tgz" -C "$OUT" logs 2>/dev/null
rm -rf "$OUT/logs" "$OUT/build.log"
echo "=== end $(date +%T)"
