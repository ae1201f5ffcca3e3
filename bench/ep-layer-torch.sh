#!/usr/bin/env bash
# PyTorch expert-parallel MoE layer (bench/ep_layer_torch.py) on the GPUs of
# one machine, the peer of our compiled EP layer (scripts/gpu-ep-nccl.sh run):
# qwen3-30b-a3b, balanced and skewed routing (make_routing_inputs.py --seed 11,
# the inputs our runs use), P = 2 and, where the machine has 4 GPUs, P = 4;
# one torchrun per case under `timeout 300`. Needs PyTorch with NCCL and numpy;
# no MLIR. NCCL_NVLS_ENABLE=0.
#
#   bash bench/ep-layer-torch.sh            (logs in ${TMPDIR:-/tmp}/moe-ep-layer-torch)
#   OUT=DIR bash bench/ep-layer-torch.sh    (logs, JSON and ep-layer-torch.txt in DIR)
#
# Environment: PYTHON (python3), EP_ITERS (20), EP_WARMUP (3), EP_SHAPE
# (qwen3-30b-a3b), EP_INPUTS (where the .npy inputs go, ~0.3 GB a routing).
# Prints each case's check line and summary line
#   torch-ep-layer shape=... P=2 routing=balanced fwd_ms=... fwdbwd_ms=... tokens_per_rank=...
# Exit status 0 when every case ran and passed its check.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
SHAPE=${EP_SHAPE:-qwen3-30b-a3b}
ITERS=${EP_ITERS:-20}
WARMUP=${EP_WARMUP:-3}
LOGDIR=${OUT:-${TMPDIR:-/tmp}/moe-ep-layer-torch}
INPUTS=${EP_INPUTS:-${TMPDIR:-/tmp}/moe-ep-layer-torch-inputs}
export NCCL_NVLS_ENABLE=0
mkdir -p "$LOGDIR" "$INPUTS"

if command -v torchrun >/dev/null 2>&1; then
  TORCHRUN=(torchrun)
else
  TORCHRUN=("$PY" -m torch.distributed.run)
fi
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "${GPUS:-0}" -lt 2 ]; then
  GPUS=$("$PY" -c "import torch; print(torch.cuda.device_count())" 2>/dev/null || echo 0)
fi
if [ "${GPUS:-0}" -lt 2 ]; then
  echo "ep-layer-torch: needs at least 2 GPUs (found ${GPUS:-0})"; exit 2
fi
RANKS="2"
[ "$GPUS" -ge 4 ] && RANKS="2 4"
echo "ep-layer-torch: $SHAPE, P in {$RANKS} ($GPUS GPUs), NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE, $("$PY" -c \
  "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda)" 2>&1 | tail -1)"

status=0
summary=()
for r in balanced skewed; do
  echo "=== inputs: $SHAPE $r (make_routing_inputs.py --seed 11) $(date +%T)"
  if ! "$PY" "$ROOT/bench/make_routing_inputs.py" "$SHAPE" "$r" --out "$INPUTS/$SHAPE-$r" \
      --seed 11 --quiet; then
    echo "FAIL: make_routing_inputs $SHAPE $r"; status=1
  fi
done
for p in $RANKS; do
  for r in balanced skewed; do
    log=$LOGDIR/ep-torch-$SHAPE-P$p-$r.log
    echo "=== torch EP layer: $SHAPE, P = $p, $r routing $(date +%T)"
    timeout 300 "${TORCHRUN[@]}" --standalone --nproc_per_node "$p" \
      "$ROOT/bench/ep_layer_torch.py" --shape "$SHAPE" --inputs "$INPUTS/$SHAPE-$r" \
      --routing "$r" --iters "$ITERS" --warmup "$WARMUP" \
      --json "$LOGDIR/ep-torch-$SHAPE-P$p-$r.json" >"$log" 2>&1
    rc=$?
    grep -E "^rank [0-9]+: tokens|^torch-ep-layer .* check " "$log"
    line=$(grep -E "^torch-ep-layer .* fwd_ms=" "$log" | tail -1)
    if [ $rc -eq 0 ] && [ -n "$line" ]; then
      echo "$line"
      summary+=("$line")
    else
      tail -30 "$log"
      why="exit $rc"; [ $rc -eq 124 ] && why="time limit 300 s"
      echo "torch-ep-layer shape=$SHAPE P=$p routing=$r FAIL ($why; log $log)"
      summary+=("torch-ep-layer shape=$SHAPE P=$p routing=$r FAIL ($why)")
      status=1
    fi
  done
done
echo "=== summary"
printf '%s\n' "${summary[@]}"
if [ -n "${OUT:-}" ]; then
  printf '%s\n' "${summary[@]}" >"$OUT/ep-layer-torch.txt"
  echo "wrote $OUT/ep-layer-torch.txt"
fi
[ $status -eq 0 ] && echo "ep-layer-torch: ALL PASSED" || echo "ep-layer-torch: FAILED"
exit $status
