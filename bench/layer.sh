#!/usr/bin/env bash
# Whole-MoE-layer benchmark for a GPU machine (no MLIR needed there): our
# compiled layer (moe-runner on build/artifacts/gpu/<shape>), forward and
# forward+backward, on the four DESIGN.md shapes with balanced and skewed
# (Zipf) routing; the PyTorch (torch._grouped_mm) and JAX (ragged_dot) layers
# on the same inputs (PyTorch in several formulations, the fastest reported as
# "torch"); the dense bf16 8192^3 ceiling in the same run; one table.
#
#   bench/layer.sh [OUTDIR]        (default: $OUT if set, else ./bench-layer-out)
#
# Environment (defaults):
#   MOE_RUNNER      moe-runner binary (build-gpu/bin/moe-runner, else build/bin/moe-runner)
#   MOE_ARTIFACTS   artifact directory (<repo>/build/artifacts/gpu): <shape>.so + .json
#   BENCH_SHAPES    comma list (all four)       BENCH_ROUTINGS  (balanced,skewed)
#   BENCH_REPS (20) BENCH_WARMUP (3)            RUNNER_TIMEOUT_S (240 per runner call)
#   SKIP_PEERS=1, SKIP_TORCH=1, SKIP_JAX=1      TORCH_TIMEOUT_S (1200, all torch work)
#   SKIP_OURS=1     time only the peers (no moe-runner calls)
#   TORCH_COMPILE_TIMEOUT_S (240): torch.compile's process per shape (0 skips torch.compile)
#   BENCH_REPLAY (1): also time ours replayed from a CUDA graph (moe-runner
#                   --cuda-graph: each entry captured once); 0 skips it
#   JAX_BUDGET_S (150 in all)  JAX_PER_SHAPE_S (90)
#   BENCH_INPUTS    where the routing .npy files go (${TMPDIR:-/tmp}/moe-layer-inputs;
#                   ~1 GB for all shapes; removed at the end unless KEEP_INPUTS=1)
#   MOE_GEMM_BENCH  moe-grouped-gemm-bench, used for the ceiling only if torch cannot
#   PYTHON (python3)
# Writes to OUTDIR: device.txt, inputs.log, routing-<s>-<r>.json, ours-<s>-<r>.json
# (+ .log, .status), replay-<s>-<r>.* (the same with --cuda-graph), torch.json,
# jax.json, peers.log, table.txt, layer.json.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/bench-layer-out}}
PY=${PYTHON:-python3}
if [ -z "${MOE_RUNNER:-}" ]; then
  MOE_RUNNER=$ROOT/build-gpu/bin/moe-runner
  [ -x "$MOE_RUNNER" ] || MOE_RUNNER=$ROOT/build/bin/moe-runner
fi
ART=${MOE_ARTIFACTS:-$ROOT/build/artifacts/gpu}
REPS=${BENCH_REPS:-20}
WARMUP=${BENCH_WARMUP:-3}
SHAPES=${BENCH_SHAPES:-seed-test,mixtral-8x7b,qwen3-30b-a3b,dsv3-1gpu}
ROUTINGS=${BENCH_ROUTINGS:-balanced,skewed}
IN=${BENCH_INPUTS:-${TMPDIR:-/tmp}/moe-layer-inputs}
GEMM_BENCH=${MOE_GEMM_BENCH:-$ROOT/build-gpu/bin/moe-grouped-gemm-bench}
mkdir -p "$OUTDIR" "$IN"
export PYTHONUNBUFFERED=1
T_START=$(date +%s)

step() { echo; echo "=== $* ($(date +%T), +$(( $(date +%s) - T_START )) s)"; }

step "device"
{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv,noheader 2>/dev/null | head -2 || echo "(no nvidia-smi)"
  nvidia-smi 2>/dev/null | grep -o "CUDA Version: [0-9.]*" | head -1
  echo "runner: $MOE_RUNNER $( [ -x "$MOE_RUNNER" ] || echo '(MISSING)')"
  echo "artifacts: $ART"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)"
} | tee "$OUTDIR/device.txt"

IFS=, read -r -a SHAPE_LIST <<<"$SHAPES"
IFS=, read -r -a ROUTING_LIST <<<"$ROUTINGS"

step "routing inputs -> $IN (histograms: $OUTDIR/inputs.log)"
: >"$OUTDIR/inputs.log"
for s in "${SHAPE_LIST[@]}"; do
  for r in "${ROUTING_LIST[@]}"; do
    rm -rf "${IN:?}/$s-$r"
    "$PY" "$ROOT/bench/make_routing_inputs.py" "$s" "$r" --out "$IN/$s-$r" \
      --json "$OUTDIR/routing-$s-$r.json" >>"$OUTDIR/inputs.log" 2>&1 ||
      { echo "inputs $s $r: FAILED (peers and ours fall back to random inputs)"; tail -3 "$OUTDIR/inputs.log"; continue; }
    tail -1 "$OUTDIR/inputs.log" | sed "s/^ */$s $r: /" | cut -c1-190
  done
done

# run_ours PREFIX SHAPE ROUTING [runner flags]: one moe-runner call timing the
# layer's three entries into PREFIX-SHAPE-ROUTING.{json,log,status}.
run_ours() {
  local prefix=$1 s=$2 r=$3
  shift 3
  local base="$OUTDIR/$prefix-$s-$r"
  rm -f "$base.json" "$base.status" "$base.log"
  if [ ! -x "$MOE_RUNNER" ]; then
    echo "missing: runner $MOE_RUNNER (set MOE_RUNNER)" >"$base.status"
  elif [ ! -f "$ART/$s.so" ] || [ ! -f "$ART/$s.json" ]; then
    echo "missing: artifact $ART/$s.so/.json" >"$base.status"
  else
    local t0 rc inputs=()
    t0=$(date +%s)
    [ -d "$IN/$s-$r" ] && inputs=(--inputs "$IN/$s-$r")
    timeout "${RUNNER_TIMEOUT_S:-240}" "$MOE_RUNNER" "$ART/$s" --device gpu "$@" \
      --entry moe_layer --entry moe_layer_fwd --entry moe_layer_bwd \
      --warmup "$WARMUP" --iters "$REPS" --json "${inputs[@]}" >"$base.json" 2>"$base.log"
    rc=$?
    if [ $rc -eq 0 ]; then
      echo "ok (wall $(( $(date +%s) - t0 )) s)" >"$base.status"
    elif [ $rc -eq 124 ]; then
      echo "failed: runner timed out after ${RUNNER_TIMEOUT_S:-240} s" >"$base.status"
    else
      # moe-runner's own error line names the failing call (e.g. a host
      # synchronization inside a CUDA graph capture); the runtime's lines
      # before it may be later failures it caused.
      echo "failed (rc $rc): $( { grep -m1 '^moe-runner: error' "$base.log" || grep -m1 'error' "$base.log" || grep -v '^\s*$' "$base.log" | tail -1; } | cut -c1-300)" >"$base.status"
    fi
  fi
  printf '%-7s %-14s %-8s %s\n' "$prefix" "$s" "$r" "$(cat "$base.status")"
}

step "ours: $MOE_RUNNER (warm-up $WARMUP, $REPS timed)"
[ "${SKIP_OURS:-0}" = 1 ] && echo "skipped (SKIP_OURS=1)" && SHAPES_OURS=() || SHAPES_OURS=("${SHAPE_LIST[@]}")
for s in "${SHAPES_OURS[@]}"; do
  for r in "${ROUTING_LIST[@]}"; do
    run_ours ours "$s" "$r"
    [ "${BENCH_REPLAY:-1}" = 1 ] && run_ours replay "$s" "$r" --cuda-graph
  done
done

PEER_ARGS=(--inputs "$IN" --shapes "$SHAPES" --routings "$ROUTINGS" --reps "$REPS" --warmup "$WARMUP")
rm -f "$OUTDIR/torch.json" "$OUTDIR/jax.json" "$OUTDIR/ceiling.json"
: >"$OUTDIR/peers.log"
if [ "${SKIP_PEERS:-0}" != 1 ] && [ "${SKIP_TORCH:-0}" != 1 ]; then
  step "peer: PyTorch layer (formulations: fused, separate, compiled) + dense ceiling"
  timeout "${TORCH_TIMEOUT_S:-1200}" "$PY" "$ROOT/bench/layer_peers.py" torch "${PEER_ARGS[@]}" \
    --compile-timeout "${TORCH_COMPILE_TIMEOUT_S:-240}" \
    --json "$OUTDIR/torch.json" 2>>"$OUTDIR/peers.log" | tee -a "$OUTDIR/peers.log"
  rc=${PIPESTATUS[0]}
  if grep -q '"available": false' "$OUTDIR/torch.json" 2>/dev/null; then
    : # the peer wrote why it could not run (no torch, no CUDA device)
  elif [ $rc -ne 0 ] || [ ! -s "$OUTDIR/torch.json" ]; then
    why="torch peer ended with rc $rc$( [ $rc -eq 124 ] && echo ": TORCH_TIMEOUT_S=${TORCH_TIMEOUT_S:-1200} reached")"
    echo "$why; stderr tail:"; tail -3 "$OUTDIR/peers.log" | cut -c1-200
    "$PY" -c 'import json,sys; json.dump(dict(available=False, note=sys.argv[2], results=[]), open(sys.argv[1], "w"))' \
      "$OUTDIR/torch.json" "$why"
  fi
fi
if ! grep -q '"ceiling_tflops"' "$OUTDIR/torch.json" 2>/dev/null; then
  step "dense ceiling without the torch peer"
  if "$PY" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    "$PY" "$ROOT/bench/layer_peers.py" ceiling --json "$OUTDIR/ceiling.json" 2>>"$OUTDIR/peers.log"
  elif [ -x "$GEMM_BENCH" ]; then
    "$GEMM_BENCH" --shapes none --reps 50 --json "$OUTDIR/ceiling.json" 2>&1 | grep dense
  else
    echo "no torch with CUDA and no $GEMM_BENCH: no ceiling (% column will be n/a)"
  fi
fi
if [ "${SKIP_PEERS:-0}" != 1 ] && [ "${SKIP_JAX:-0}" != 1 ]; then
  step "peer: JAX layer (ragged_dot), budget ${JAX_BUDGET_S:-150} s"
  "$PY" "$ROOT/bench/layer_peers.py" jax "${PEER_ARGS[@]}" --json "$OUTDIR/jax.json" \
    --budget "${JAX_BUDGET_S:-150}" --per-shape "${JAX_PER_SHAPE_S:-90}" \
    2>>"$OUTDIR/peers.log" | tee -a "$OUTDIR/peers.log"
fi

step "summary"
"$PY" "$ROOT/bench/report_layer.py" "$OUTDIR" | tee "$OUTDIR/table.txt"
report_rc=${PIPESTATUS[0]}
if [ "${KEEP_INPUTS:-0}" != 1 ]; then
  for s in "${SHAPE_LIST[@]}"; do for r in "${ROUTING_LIST[@]}"; do rm -rf "${IN:?}/$s-$r"; done; done
  rmdir "$IN" 2>/dev/null
fi
echo "total $(( $(date +%s) - T_START )) s; files in $OUTDIR"
exit $report_rc
