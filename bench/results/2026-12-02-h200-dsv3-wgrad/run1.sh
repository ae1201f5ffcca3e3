#!/usr/bin/env bash
# Device call 1 (one H200): where dsv3-1gpu's weight gradients lose their
# time. Artifacts compiled on the MLIR machine (compiler b2d5813):
#   .art/wgp/bf16-gen, bf16-lt, fp8-gen  bench/generated_gemm.py entries
#       (bf16; --fp8 blockwise) filtered to dsv3-1gpu's two weight gradients,
#       moe-compile --gemm=generated / --gemm=cublaslt
#   .art/pm   CHECK_ONLY=1 MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#             MOE_LAYER_ALIGN=128 scripts/gpu-artifacts.sh (mixtral-8x7b,
#             qwen3-30b-a3b check layers, rows padded to 128)
# (a) the weight gradients alone, aligned / routed / skewed sizes;
# (b) ncu (--set full) of one fc1 weight gradient of each kernel;
# (c) qwen3-30b-a3b's padded FP8 check layer, forward and backward vs CPU.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) weight gradients alone $(date +%T)"
timeout 200 python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa --shapes dsv3-1gpu --iters 10 \
  bf16-generated=.art/wgp/bf16-gen bf16-cublaslt=.art/wgp/bf16-lt fp8-generated=.art/wgp/fp8-gen \
  > "$OUT/wgrad-alone.md" 2>&1
echo "rc=$?"; cat "$OUT/wgrad-alone.md"
echo "=== (b) ncu $(date +%T), $(left) s left"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for spec in fp8-gen:aligned fp8-gen:routed bf16-gen:routed; do
  art=${spec%%:*} kind=${spec##*:}
  [ "$(left)" -gt 200 ] || { echo "skip ncu $spec: $(left) s left"; continue; }
  timeout 100 "$NCU" --clock-control none --set full --kernel-name regex:grouped_weight_grad \
    --launch-count 1 -f -o /tmp/ncu-$art-$kind "$RUNNER" .art/wgp/$art --device gpu \
    --inputs /tmp/wa/in-dsv3-1gpu-$kind --entry fc1_wgrad_dsv3_1gpu --warmup 0 --iters 1 \
    > "$OUT/ncu-$art-$kind.log" 2>&1
  echo "ncu $spec rc=$?"
  "$NCU" --import /tmp/ncu-$art-$kind.ncu-rep --page details > "$OUT/ncu-$art-$kind.txt" 2>&1
  "$NCU" --import /tmp/ncu-$art-$kind.ncu-rep --page raw 2>&1 |
    grep -E "issue_stalled|dram__bytes|dram__throughput|sm__throughput|gpu__time_duration|lts__t_bytes|smsp__inst_executed.sum |sm__warps_active" \
    > "$OUT/ncu-$art-$kind-raw.txt"
  grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Registers Per|Achieved Occupancy|Warp Cycles Per Issued" "$OUT/ncu-$art-$kind.txt" | head -12
done
echo "=== (c) qwen3-30b-a3b padded check $(date +%T), $(left) s left"
Q=.art/pm/check/gpu/qwen3-30b-a3b
timeout $(( $(left) - 10 )) "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --check-against .art/pm/check/cpu/qwen3-30b-a3b --reuse-fp8-weights \
  $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-qwen3-padded.log" 2>&1
echo "rc=$?"; grep -E "^check|FAIL|near-ties|out |d_x |d_w_|d_router" "$OUT/check-qwen3-padded.log" | head -20
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
