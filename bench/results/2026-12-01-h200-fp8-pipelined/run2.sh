#!/usr/bin/env bash
# Device call 2 (one H200), this session's compiler (overlapped promotion of
# blockwise FP8 grouped matmuls):
# (a) bench/generated_gemm.py's FP8 blockwise fwd/dgrad entries, overlapped
#     promotion (ov, .art/gg30/fp8b-ov) against the kernel before (base),
#     same run, one shape at a time (run1's single call over four shapes
#     hit its timeout before printing);
# (b) the bf16-wgrad FP8 check layers (.art/f8w) against the CPU, forward
#     and backward, qwen3-30b-a3b and mixtral-8x7b;
# (c) dsv3-1gpu backward profiles: bf16 (.art/b17) and FP8 with bf16 weight
#     gradients (.art/f8w).
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) FP8 GEMMs, overlapped promotion vs before $(date +%T)"
for s in mixtral-8x7b qwen3-30b-a3b seed-test; do
  timeout 110 python3 bench/results/2026-11-29-h200-fp8-wgrad/fp8_gemm_times.py --runner "$RUNNER" \
    --out /tmp/g8 --shapes $s --passes fwd,dgrad --iters 20 \
    base=.art/gg30/fp8b-base ov=.art/gg30/fp8b-ov > "$OUT/fp8-gemms-$s.txt" 2>&1
  echo "$s rc=$?"; cat "$OUT/fp8-gemms-$s.txt"
done
echo "=== (b) bf16-wgrad FP8 checks $(date +%T), $(left) s left"
for s in qwen3-30b-a3b mixtral-8x7b; do
  Q=.art/f8w/check/gpu/$s
  timeout 100 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --check-against .art/f8w/check/cpu/$s --reuse-fp8-weights \
    $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-$s-fp8w.log" 2>&1
  echo "$s rc=$?"; grep -E "^check|FAIL|d_x|d_w_|out " "$OUT/check-$s-fp8w.log" | head -12
done
echo "=== (c) dsv3 backward profiles $(date +%T), $(left) s left"
for v in b17 f8w; do
  [ "$(left)" -gt 80 ] || { echo "skip $v: $(left) s left"; continue; }
  timeout $(( $(left) - 10 )) "$RUNNER" .art/$v/gpu/dsv3-1gpu --device gpu --entry moe_layer_bwd \
    --iters 5 --warmup 2 --profile > "$OUT/profile-dsv3-$v.txt" 2>&1
  echo "$v rc=$?"; grep -E "median|grouped|quantize|moert|\(sum\)" "$OUT/profile-dsv3-$v.txt" | head -30
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
