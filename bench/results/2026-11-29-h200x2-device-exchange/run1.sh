#!/bin/bash
# Call 1 (nvidia-h200-x2): the device-side exchange. NCCL of PyTorch's wheel
# (2.28.9, nccl_device.h) when it has the device headers, else the system's.
# scripts/gpu-ep.sh: collectives test P = 1, 2 (both exchanges, graph replays,
# device faults); scripts/gpu-ep-nccl.sh: reduced layers under both exchanges,
# the full qwen3 layer captured in CUDA graphs and replayed on other routing,
# the fault case on the device exchange.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -4
TN=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)
echo "torch nccl: $TN"; ls "$TN/include" "$TN/lib" 2>/dev/null | head; ls /usr/include/nccl_device.h 2>/dev/null
if [ -n "$TN" ] && [ -f "$TN/include/nccl_device.h" ]; then export NCCL_ROOT=$TN; fi
echo "NCCL_ROOT=${NCCL_ROOT:-(system)}"; which g++ nvcc
echo "== gpu-ep.sh"
timeout 200 bash scripts/gpu-ep.sh "$OUT/ep" > "$OUT/ep.txt" 2>&1; echo "gpu-ep rc=$?"
grep -E "NCCL|device-side|PASS|FAIL|checks|^fault" "$OUT/ep.txt" | head -40
echo "== gpu-ep-nccl.sh reduced graph fault"
EP_CASES="reduced graph fault" timeout 330 bash scripts/gpu-ep-nccl.sh run .art/epn "$OUT/epn" > "$OUT/epn.txt" 2>&1; echo "gpu-ep-nccl rc=$?"
grep -vE "moe-runner: \[" "$OUT/epn.txt" | tail -70
cd "$OUT" && tar czf logs.tgz ep.txt epn.txt ep epn --exclude='*.npy' 2>/dev/null; rm -rf ep epn
