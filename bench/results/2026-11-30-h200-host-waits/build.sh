#!/usr/bin/env bash
# Builds (on the machine with MLIR) the artifacts of this folder's device
# calls into OUT (default .art/hw):
#   OUT/art                 scripts/gpu-artifacts.sh with the defaults: every
#                           example's full and check layers, test/gpu's GEMM
#                           cases, FP8, NaN and adversarial layers; the host
#                           waits deferred (gpu-defer-host-waits on)
#   OUT/nowait/qwen3-30b-a3b  the same full qwen3-30b-a3b layer compiled with
#                           --defer-host-waits=false (the host waits for the
#                           stream before each cuBLASLt GEMM and TMA
#                           descriptor), to compare
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${1:-.art/hw}
BIN=${BIN:-build/bin}
scripts/gpu-artifacts.sh "$(dirname "$BIN")" "$OUT/art"
mkdir -p "$OUT/nowait"
"$BIN/moe-compile" --quiet "$OUT/art/src/qwen3-30b-a3b.mlir" --target=sm_90a \
  --defer-host-waits=false -o "$OUT/nowait/qwen3-30b-a3b"
echo "built $OUT"
