#!/bin/bash
# Call 2 (nvidia-h200-x2): the full qwen3-30b-a3b layer over 2 GPUs under both
# exchanges (balanced, skewed) against one GPU, then the PyTorch EP layer on
# the same machine (bench/ep-layer-torch.sh).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
TN=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)
[ -n "$TN" ] && [ -f "$TN/include/nccl_device.h" ] && export NCCL_ROOT=$TN
echo "NCCL_ROOT=${NCCL_ROOT:-(system)}"
echo "== gpu-ep-nccl.sh full"
EP_CASES="full" timeout 330 bash scripts/gpu-ep-nccl.sh run .art/epn "$OUT/epn" > "$OUT/epn.txt" 2>&1; echo "gpu-ep-nccl rc=$?"
grep -E "PASS|FAIL|^=== |entry moe_layer_[fb]wd on gpu" "$OUT/epn.txt" | grep -vE "rank [01]:     " | tail -60
echo "== ep-layer-torch"
mkdir -p "$OUT/tl"; OUT=$OUT/tl timeout 200 bash bench/ep-layer-torch.sh > "$OUT/torch-layer.txt" 2>&1; echo "ep-layer-torch rc=$?"
grep -vE "^\s*$" "$OUT/torch-layer.txt" | tail -25
cd "$OUT" && tar czf logs.tgz epn.txt torch-layer.txt $(ls epn/*.log tl/*.txt tl/*.json 2>/dev/null) 2>/dev/null; rm -rf epn tl
