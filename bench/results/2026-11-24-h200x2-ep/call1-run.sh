#!/bin/bash
# Session 7, call 1 (nvidia-h200-x2): issue 16 correctness over NCCL: scripts/gpu-ep.sh (NCCL collectives
# P=1,2; hand-made EP artifact) and scripts/gpu-ep-nccl.sh run (compiled EP layers, one GPU per rank).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -4
ls /usr/include/nccl.h /usr/lib/x86_64-linux-gnu/libnccl.so* 2>/dev/null
echo "== gpu-ep.sh"
timeout 200 bash scripts/gpu-ep.sh "$OUT/ep" > "$OUT/ep.txt" 2>&1; echo "gpu-ep rc=$?"
grep -E "NCCL|PASS|FAIL|checks" "$OUT/ep.txt" | head -30
echo "== gpu-ep-nccl.sh"
timeout 480 bash scripts/gpu-ep-nccl.sh run .art/epn "$OUT/epn" > "$OUT/epn.txt" 2>&1; echo "gpu-ep-nccl rc=$?"
grep -vE "moe-runner: \[" "$OUT/epn.txt" | tail -80
cd "$OUT" && tar czf logs.tgz ep.txt epn.txt ep epn --exclude='*.npy' 2>/dev/null; rm -rf ep epn
