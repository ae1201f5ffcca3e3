#!/bin/bash
# Call 3 (nvidia-h200-x2): the full qwen3 layer over 2 GPUs on the device
# exchange captured in CUDA graphs and replayed on other routing (and the
# host-counts refusal), its --profile, then the exchange bandwidth of both
# exchanges against torch all_to_all_single (bench/ep-exchange.sh).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
TN=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)
[ -n "$TN" ] && [ -f "$TN/include/nccl_device.h" ] && export NCCL_ROOT=$TN
echo "NCCL_ROOT=${NCCL_ROOT:-(system)}"
echo "== gpu-ep-nccl.sh graph profile"
EP_CASES="graph profile" timeout 260 bash scripts/gpu-ep-nccl.sh run .art/epn "$OUT/epn" > "$OUT/epn.txt" 2>&1; echo "gpu-ep-nccl rc=$?"
grep -E "PASS|FAIL|^=== |graph variant|entry moe_layer_[fb]wd on gpu" "$OUT/epn.txt" | grep -vE "rank [01]:     |moe-runner: \[" | sed 's/ \[NVIDIA H200 (sm_90)\]//' | tail -40
grep -E "^rank 0:" "$OUT/epn.txt" | grep -A45 "kernel profile" | head -100
echo "== ep-exchange"
EP_ITERS=20 timeout 240 bash bench/ep-exchange.sh "$OUT/xchg" > "$OUT/xchg.txt" 2>&1; echo "ep-exchange rc=$?"
tail -16 "$OUT/xchg.txt"
cd "$OUT" && tar czf logs.tgz epn.txt xchg.txt $(ls epn/*.log epn/*.txt xchg/*.log xchg/*.md 2>/dev/null) 2>/dev/null; rm -rf epn xchg
