#!/bin/bash
# Session 7, call 2 (nvidia-h200-x2): issue 16: the fault case and a profile of the full qwen3 layer over
# 2 GPUs (gpu-ep-nccl.sh EP_CASES="profile fault"), the exchange bandwidth vs torch all_to_all_single
# (bench/ep-exchange.sh), and the PyTorch EP layer (bench/ep-layer-torch.sh).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
echo "== gpu-ep-nccl.sh profile fault"
EP_CASES="profile fault" timeout 200 bash scripts/gpu-ep-nccl.sh run .art/epn "$OUT/epn" > "$OUT/epn.txt" 2>&1; echo "gpu-ep-nccl rc=$?"
grep -vE "moe-runner: \[" "$OUT/epn.txt" | tail -75
echo "== ep-exchange"
EP_ITERS=20 timeout 200 bash bench/ep-exchange.sh "$OUT/xchg" > "$OUT/xchg.txt" 2>&1; echo "ep-exchange rc=$?"
tail -25 "$OUT/xchg.txt"
echo "== ep-layer-torch"
mkdir -p "$OUT/tl"; OUT=$OUT/tl timeout 170 bash bench/ep-layer-torch.sh > "$OUT/torch-layer.txt" 2>&1; echo "ep-layer-torch rc=$?"
grep -vE "^\s*$" "$OUT/torch-layer.txt" | tail -25
cd "$OUT" && tar czf logs.tgz epn.txt xchg.txt torch-layer.txt epn/*.log epn/*.txt xchg tl/*.txt tl/*.json tl/*.log --exclude='*.npy' 2>/dev/null; rm -rf epn xchg tl
