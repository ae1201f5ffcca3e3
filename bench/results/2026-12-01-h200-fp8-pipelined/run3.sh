#!/usr/bin/env bash
# Device call 3 (one H200): weight gradients of small groups (dsv3-1gpu:
# 256 groups of about 128 rows) as generated 128 x 128 pingpong kernels
# instead of cuBLASLt (gemm=auto, this session's rule) or 128 x 256
# cooperative ones.
# (a) bench/generated_gemm.py's bf16 dsv3-1gpu wgrad entries: generated
#     128 x 256 (the automatic width before: .art/gw30/gen), 128 x 128
#     pingpong (--gemm-block-n=128: gen128) and cuBLASLt, balanced and skewed;
# (b) dsv3-1gpu's bf16 check layer with the new rule (.art/b30) against the
#     CPU, forward and backward;
# (c) the full dsv3-1gpu bf16 layer, same routing inputs: .art/b17 (auto
#     before: cuBLASLt weight gradients) and .art/b30 (every GEMM generated),
#     then .art/b30 replayed from a CUDA graph (--cuda-graph).
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((535 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) dsv3 wgrad GEMMs $(date +%T)"
timeout 120 python3 bench/results/2026-12-01-h200-fp8-pipelined/gemm_times.py --runner "$RUNNER" \
  --out /tmp/gw --shapes dsv3-1gpu --passes wgrad --iters 20 \
  gen256=.art/gw30/gen gen128=.art/gw30/gen128 cublaslt=.art/gw30/cublaslt > "$OUT/wgrad-dsv3.txt" 2>&1
echo "rc=$?"; cat "$OUT/wgrad-dsv3.txt"
echo "=== (b) dsv3 bf16 check, new rule $(date +%T), $(left) s left"
Q=.art/b30/check/gpu/dsv3-1gpu
timeout 100 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --check-against .art/b30/check/cpu/dsv3-1gpu \
  $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-dsv3-b30.log" 2>&1
echo "rc=$?"; grep -E "^check|FAIL|    (out|d_x|d_w_|d_router)" "$OUT/check-dsv3-b30.log" | head -12
echo "=== (c) dsv3 bf16 layer $(date +%T), $(left) s left"
IN=/tmp/dl/inputs; mkdir -p /tmp/dl
python3 bench/make_routing_inputs.py dsv3-1gpu balanced --out $IN/dsv3-balanced \
  --json /tmp/dl/routing.json --quiet > /tmp/dl/inputs.log 2>&1 || tail -3 /tmp/dl/inputs.log
for run in "b30 plain" "b17 plain" "b30 replay --cuda-graph"; do
  set -- $run; art=$1 label=$1-$2; shift 2
  [ "$(left)" -gt 100 ] || { echo "skip $label: $(left) s left"; continue; }
  timeout $(( $(left) - 10 )) "$RUNNER" .art/$art/gpu/dsv3-1gpu --device gpu --entry moe_layer_fwd \
    --entry moe_layer_bwd --inputs $IN/dsv3-balanced --warmup 3 --iters 20 "$@" \
    > "$OUT/layer-dsv3-$label.txt" 2>&1
  echo "$label rc=$? $(grep -E "^entry .* median" "$OUT/layer-dsv3-$label.txt" | sed 's/ over.*//' | tr '\n' ' ')"
  grep -iE "error|capture" "$OUT/layer-dsv3-$label.txt" | head -3
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
