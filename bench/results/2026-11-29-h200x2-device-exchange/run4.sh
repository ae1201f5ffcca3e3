#!/bin/bash
# Call 4 (nvidia-h200-x2): the pipelined device exchange (one exchange kernel:
# pushers set a flag per piece, drainers copy each piece as it arrives; no
# second barrier). scripts/gpu-ep.sh (collectives P = 1, 2 with graph
# replays and the device faults); gpu-ep-nccl.sh on the device exchange:
# reduced layers, FP8 rows on the wire, the full layer replayed from CUDA
# graphs, the full layer balanced + skewed; ep-exchange.sh (device only) vs torch.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
TN=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)
[ -n "$TN" ] && [ -f "$TN/include/nccl_device.h" ] && export NCCL_ROOT=$TN
echo "NCCL_ROOT=${NCCL_ROOT:-(system)}"
echo "== gpu-ep.sh"
timeout 150 bash scripts/gpu-ep.sh "$OUT/ep" > "$OUT/ep.txt" 2>&1; echo "gpu-ep rc=$?"
grep -E "PASS|FAIL|checks|^fault" "$OUT/ep.txt" | head -20
echo "== gpu-ep-nccl.sh (device exchange) reduced fp8 graph full"
EP_EXCHANGES=device EP_CASES="reduced fp8 graph full" timeout 330 bash scripts/gpu-ep-nccl.sh run .art/epn "$OUT/epn" > "$OUT/epn.txt" 2>&1; echo "gpu-ep-nccl rc=$?"
grep -E "PASS|FAIL|^=== |entry moe_layer_[fb]wd on gpu|rel_l2" "$OUT/epn.txt" | grep -vE "moe-runner: \[|rank 1:     " | sed 's/ \[NVIDIA H200 (sm_90)\]//' | tail -60
echo "== ep-exchange (device)"
EP_EXCHANGES=device EP_ITERS=20 timeout 100 bash bench/ep-exchange.sh "$OUT/xchg" > "$OUT/xchg.txt" 2>&1; echo "ep-exchange rc=$?"
tail -8 "$OUT/xchg.txt"
cd "$OUT" && tar czf logs.tgz ep.txt epn.txt xchg.txt $(ls ep/*.log epn/*.log xchg/*.log xchg/*.md 2>/dev/null) 2>/dev/null; rm -rf ep epn xchg
