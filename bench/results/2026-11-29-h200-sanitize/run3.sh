#!/bin/bash
# One H200: after the review fixes (the window's rows start where its counts
# capacity says, for every call; the window never shrinks; bounds on
# chunks/rows; a trapped exchange's why in the entry's failure message):
# scripts/gpu-ep.sh on one GPU (collectives P = 1 under both exchanges with
# graph replays and calls whose chunks per rank change: 2, 1, 2, 2, 1, 3;
# the hand-made EP artifact over NCCL at P = 1), NCCL of PyTorch's wheel.
set -u
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
timeout 200 bash scripts/gpu-ep.sh "$OUT/ep" > "$OUT/ep.txt" 2>&1; echo "gpu-ep rc=$?"
grep -E "NCCL_ROOT|NCCL|PASS|FAIL|checks|SKIP" "$OUT/ep.txt" | head -20
