#!/usr/bin/env bash
# Expert parallelism on several GPUs over NCCL: one process and one GPU per
# rank (moe-runner --ranks P --device gpu; NCCL_NVLS_ENABLE=0). Split between
# a machine with MLIR (compile) and a multi-GPU machine without it (run):
#
#   scripts/gpu-ep-nccl.sh artifacts [DIR]   here: compiles (needs build/bin
#                                            and ptxas, no GPU) into DIR
#                                            (default build-ep-nccl)
#   scripts/gpu-ep-nccl.sh run [DIR [OUTDIR]] on the GPU machine: builds
#                                            libmoe_runtime_gpu with NCCL and
#                                            moe-runner (BUILD_GPU, default
#                                            build-gpu), then runs every case
#                                            whose P fits the GPUs
#
# Cases (P = 2, and 4 where the machine has 4 GPUs), each forward and single
# backward, every rank checking all 9 outputs (out, the global aux loss, its
# slice of d_x and of its experts' weight gradients, d_router_weight summed
# over the ranks):
#   - reduced layers against their one-rank CPU layer on the whole batch
#     (examples/small.mlir; test/e2e/fp8/Inputs/{qwen3,dsv3}-reduced.mlir;
#     small and dsv3 also on a [2, 2] grid, data x expert parallelism),
#     random routing, and dsv3's with an expert bias that sends every token
#     to rank 0's experts (the other ranks receive nothing) or, at P = 2, to
#     rank 1's;
#   - qwen3-30b-a3b at its benchmark shape (T = 16384 in all, 8192 a rank at
#     P = 2) against the one-GPU layer on the whole batch (each rank runs it
#     on its own GPU), balanced and skewed routing
#     (bench/make_routing_inputs.py), with per-rank times next to the
#     one-GPU layer's;
#   - a fault: rank 1 killed (SIGKILL) while the ranks time the full layer;
#     the other rank must end with an error within MOE_COMM_TIMEOUT_S (30 s
#     here) plus the runner's grace period, and the time it took is printed.
#   - fp8: FP8 rows on the wire (moe-fp8-placement blockwise,
#     quantize-before-all-to-all, bf16 wgrads): reduced qwen3 at P = 2 vs
#     its one-rank CPU layer, and the full layer over 2 GPUs vs the one-GPU
#     layer with the same placement;
#   - graph: the full layer over 2 GPUs on the device exchange, each entry
#     captured in a CUDA graph and replayed on 3 other inputs (other routing
#     each time; --graph-variants), every replay bit-identical to a plain
#     call, then checked against one GPU; and, with host-counts, the capture
#     must fail naming the call that waits for the host.
# The reduced and full cases run under each exchange of EP_EXCHANGES
# (default "device host-counts": moe-runner --exchange); the fault under
# the first. EP_CASES (default "reduced full graph fault") picks which
# groups run; "profile" adds moe-runner --profile of the full layer over 2
# GPUs. NCCL: moe_default_nccl_root (scripts/gpu-runner-build.sh) picks
# PyTorch's wheel when it has nccl_device.h, unless NCCL_ROOT is set.
# Exit status 0 when everything passed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODE=${1:-}
DIR=${2:-$ROOT/build-ep-nccl}
CHIP=${MOE_GPU_CHIP:-sm_90a}
# The full layers' grouped GEMMs (moe-compile --gemm): the generated kernels
# read the group sizes on the device (the cuBLASLt path copies them to the
# host before each call).
GEMM=${EP_GEMM:-generated}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

# name  source  layout (P, or GRID@OPTIONS: ep-compile.sh)  (reduced layers;
# checked against "<source stem>-one" on the cpu)
REDUCED="small-ep2:examples/small.mlir:2 small-ep4:examples/small.mlir:4
qwen3-ep2:test/e2e/fp8/Inputs/qwen3-reduced.mlir:2
dsv3-ep2:test/e2e/fp8/Inputs/dsv3-reduced.mlir:2 dsv3-ep4:test/e2e/fp8/Inputs/dsv3-reduced.mlir:4
small-dpep:examples/small.mlir:2x2@axis=1+data-axes=0
dsv3-dpep:test/e2e/fp8/Inputs/dsv3-reduced.mlir:2x2@axis=0+data-axes=1"
FULL_SRC=examples/qwen3-30b-a3b.mlir
FULL_RANKS="2 4"
FP8_REDUCED=test/e2e/fp8/Inputs/qwen3-reduced.mlir
FP8_PLACEMENT="recipe=blockwise quantize-before-all-to-all=true gemms=fc1,fc2,forward,dgrad"

case "$MODE" in
artifacts)
  set -e
  BIN=${BUILD:-$ROOT/build}/bin
  mkdir -p "$DIR"
  # shellcheck source=scripts/ep-compile.sh
  . "$ROOT/scripts/ep-compile.sh"
  for spec in $REDUCED; do
    IFS=: read -r name src layout <<<"$spec"
    one=$(basename "$src" .mlir)-one
    [ -f "$DIR/$one.so" ] || moe_compile_layer "$BIN" "$ROOT/$src" 1 "$DIR/$one" cpu
    moe_compile_layer "$BIN" "$ROOT/$src" "$layout" "$DIR/$name" "$CHIP" --cuda-path="$CUDA_HOME"
    echo "wrote $DIR/$name.so ($CHIP, $layout)"
  done
  for p in 1 $FULL_RANKS; do
    stem=$DIR/qwen3-full-ep$p
    [ "$p" -gt 1 ] || stem=$DIR/qwen3-full-one
    moe_compile_layer "$BIN" "$ROOT/$FULL_SRC" "$p" "$stem" "$CHIP" --gemm="$GEMM" \
      --cuda-path="$CUDA_HOME"
  done
  echo "wrote $DIR/qwen3-full-{one,ep2,ep4}.so ($CHIP, --gemm=$GEMM)"
  # FP8 on the wire: blockwise placement that quantizes above the exchange
  # (bf16 wgrads, whose FP8 token blocks would fall elsewhere with P ranks).
  export MOE_EP_FP8_PLACEMENT="$FP8_PLACEMENT"
  moe_compile_layer "$BIN" "$ROOT/$FP8_REDUCED" 1 "$DIR/qwen3-reduced-fp8-one" cpu
  moe_compile_layer "$BIN" "$ROOT/$FP8_REDUCED" 2 "$DIR/qwen3-fp8-ep2" "$CHIP" --gemm="$GEMM" \
    --cuda-path="$CUDA_HOME"
  for p in 1 2; do
    stem=$DIR/qwen3-full-fp8-ep$p
    [ "$p" -gt 1 ] || stem=$DIR/qwen3-full-fp8-one
    moe_compile_layer "$BIN" "$ROOT/$FULL_SRC" "$p" "$stem" "$CHIP" --gemm="$GEMM" \
      --cuda-path="$CUDA_HOME"
  done
  unset MOE_EP_FP8_PLACEMENT
  echo "wrote $DIR/qwen3-{fp8-ep2,full-fp8-one,full-fp8-ep2}.so (FP8: $FP8_PLACEMENT)"
  ;;
run)
  OUTDIR=${3:-${OUT:-$ROOT/gpu-ep-nccl-out}}
  BUILD=${BUILD_GPU:-$ROOT/build-gpu}
  mkdir -p "$OUTDIR"
  export PATH="$CUDA_HOME/bin:$PATH" NCCL_NVLS_ENABLE=0
  export MOE_COMM_TIMEOUT_S=${MOE_COMM_TIMEOUT_S:-120}
  EXCHANGES=${EP_EXCHANGES:-device host-counts}
  FIRST_EXCHANGE=${EXCHANGES%% *}
  # shellcheck source=scripts/gpu-runner-build.sh
  . "$ROOT/scripts/gpu-runner-build.sh"
  moe_default_nccl_root
  moe_build_gpu_runner "$ROOT" "$BUILD" "$CUDA_HOME" "$OUTDIR/build.log"
  grep -E "moe_runtime_gpu: (NCCL|device-side|no nccl_device)" "$OUTDIR/build.log" | sed 's/^-- //'
  if [[ " $EXCHANGES " == *" device "* ]] && ! grep -q "device-side exchange on" "$OUTDIR/build.log"; then
    echo "FAIL: libmoe_runtime_gpu was built without the device-side exchange"; exit 1
  fi
  if grep -q "NCCL not found" "$OUTDIR/build.log"; then
    echo "FAIL: libmoe_runtime_gpu was built without NCCL (set NCCL_ROOT)"; exit 1
  fi
  GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  nvidia-smi --query-gpu=index,name --format=csv,noheader
  status=0
  # ranks_pass LOG P: every rank's 9 outputs passed, nothing failed, NCCL used.
  ranks_pass() {
    local passed
    passed=$(grep -c "check: 9 outputs, 0 failed$" "$1")
    [ "$passed" -eq "$2" ] && ! grep -q FAIL "$1" && ! grep -q "ranks share GPUs" "$1"
  }
  report() { # NAME LOG P RC
    if [ "$4" -eq 0 ] && ranks_pass "$2" "$3"; then
      grep -E "check:|entry moe_layer_(fwd|bwd) on gpu" "$2" | sed 's/ \[NVIDIA.*\]//'
      echo "$1: PASS"
    else
      tail -40 "$2"; echo "$1: FAIL (exit $4)"; status=1
    fi
  }
  python3 "$ROOT/test/e2e/expert-parallel/Inputs/write-expert-bias.py" "$OUTDIR/in-first" 32 0 8
  python3 "$ROOT/test/e2e/expert-parallel/Inputs/write-expert-bias.py" "$OUTDIR/in-last" 32 24 8
  CASES=" ${EP_CASES:-reduced full graph fault} "
  has() { [[ "$CASES" == *" $1 "* ]]; }
  for c in $CASES; do
    case $c in reduced|full|graph|fp8|fault|profile) ;;
    *) echo "FAIL: EP_CASES: unknown case '$c' (reduced, full, graph, fp8, fault, profile)"; exit 1 ;;
    esac
  done
  if [ "$GPUS" -lt 2 ]; then
    echo "FAIL: $GPUS GPU(s): expert parallelism over NCCL needs one GPU per rank, 2 at least"
    exit 1
  fi
  has reduced || REDUCED=""
  # shellcheck source=scripts/ep-compile.sh
  . "$ROOT/scripts/ep-compile.sh"
  for spec in $REDUCED; do
    IFS=: read -r name src layout <<<"$spec"
    p=$(moe_layout_ranks "$layout")
    [ "$p" -le "$GPUS" ] || { echo "$name: skipped (P = $p > $GPUS GPUs)"; continue; }
    one=$(basename "$src" .mlir)-one
    variants="random"
    case "$name" in dsv3-ep2) variants="random first last" ;; dsv3-*) variants="random first" ;; esac
    for ex in $EXCHANGES; do
      for v in $variants; do
        inputs=()
        [ "$v" = random ] || inputs=(--inputs "$OUTDIR/in-$v")
        log=$OUTDIR/$name-$v-$ex.log
        echo "=== $name ($v routing, $ex exchange): moe-runner --ranks $p --device gpu over NCCL $(date +%T)"
        timeout 300 "$RUNNER" "$DIR/$name" --ranks "$p" --device gpu --iters 1 --warmup 0 \
          --seed 5 "${inputs[@]}" --exchange "$ex" --check-against "$DIR/$one" >"$log" 2>&1
        report "$name-$v-$ex" "$log" "$p" $?
      done
    done
  done
  # FP8 rows on the wire (device exchange): reduced qwen3 against its CPU
  # layer with the same placement, the full one against the one-GPU layer
  # with the same placement.
  if has fp8; then
    log=$OUTDIR/qwen3-fp8-ep2.log
    echo "=== reduced qwen3, FP8 rows on the wire, P = 2 vs one rank on the CPU $(date +%T)"
    timeout 300 "$RUNNER" "$DIR/qwen3-fp8-ep2" --ranks 2 --device gpu --iters 1 --warmup 0 \
      --seed 5 --exchange "$FIRST_EXCHANGE" --check-against "$DIR/qwen3-reduced-fp8-one" \
      >"$log" 2>&1
    report "qwen3-fp8-ep2" "$log" 2 $?
    python3 "$ROOT/bench/make_routing_inputs.py" qwen3-30b-a3b balanced \
      --out "$OUTDIR/qwen3-balanced" --seed 11 --quiet || { echo "FAIL: make_routing_inputs"; status=1; }
    log=$OUTDIR/qwen3-full-fp8-ep2.log
    echo "=== qwen3-30b-a3b, FP8 rows on the wire, over 2 GPUs vs one GPU $(date +%T)"
    timeout 420 "$RUNNER" "$DIR/qwen3-full-fp8-ep2" --ranks 2 --device gpu --iters 20 \
      --warmup 3 --seed 11 --inputs "$OUTDIR/qwen3-balanced" --exchange "$FIRST_EXCHANGE" \
      --check-against "$DIR/qwen3-full-fp8-one" >"$log" 2>&1
    report "qwen3-full-fp8-ep2" "$log" 2 $?
  fi
  # The full qwen3 layer: routing inputs, the one-GPU layer's time, then P ranks.
  has full || has profile || has graph || FULL_RANKS=""
  for r in ${FULL_RANKS:+balanced skewed}; do
    python3 "$ROOT/bench/make_routing_inputs.py" qwen3-30b-a3b "$r" --out "$OUTDIR/qwen3-$r" \
      --seed 11 --quiet || { echo "FAIL: make_routing_inputs $r"; status=1; }
  done
  for r in ${FULL_RANKS:+balanced skewed}; do
    has full || break
    echo "=== qwen3-30b-a3b, one GPU, $r $(date +%T)"
    CUDA_VISIBLE_DEVICES=0 timeout 300 "$RUNNER" "$DIR/qwen3-full-one" --device gpu --iters 20 \
      --warmup 3 --seed 11 --inputs "$OUTDIR/qwen3-$r" >"$OUTDIR/qwen3-one-$r.log" 2>&1
    grep -E "entry moe_layer_(fwd|bwd) on gpu" "$OUTDIR/qwen3-one-$r.log" | sed 's/ \[NVIDIA.*\]//'
  done
  if has profile && [ "$GPUS" -ge 2 ]; then
    echo "=== qwen3-30b-a3b over 2 GPUs, balanced routing: --profile $(date +%T)"
    timeout 300 "$RUNNER" "$DIR/qwen3-full-ep2" --ranks 2 --device gpu --iters 5 --warmup 2 \
      --seed 11 --inputs "$OUTDIR/qwen3-balanced" --exchange "$FIRST_EXCHANGE" --profile >"$OUTDIR/qwen3-full-ep2-profile.txt" 2>&1
    grep -E "^rank 0:" "$OUTDIR/qwen3-full-ep2-profile.txt" | grep -vE "moe-runner: \[" | head -90
  fi
  if has graph && [ -n "$FULL_RANKS" ]; then
    # Device exchange + generated GEMMs: nothing waits on the host, so each
    # entry is captured once and replayed on other routing.
    log=$OUTDIR/qwen3-full-ep2-graph.log
    echo "=== qwen3-30b-a3b over 2 GPUs, device exchange, CUDA graphs replayed on 3 other inputs $(date +%T)"
    timeout 420 "$RUNNER" "$DIR/qwen3-full-ep2" --ranks 2 --device gpu --iters 20 --warmup 3 \
      --seed 11 --inputs "$OUTDIR/qwen3-balanced" --exchange device --cuda-graph \
      --graph-variants 3 --check-against "$DIR/qwen3-full-one" >"$log" 2>&1
    rc=$?
    variants=$(grep -cE "graph variant [0-9]+ of entry moe_layer_[fb]wd: [0-9]+ outputs of the replay bit-identical" "$log")
    if [ "$variants" -ne 12 ]; then # 2 ranks x 2 entries x 3 variants
      echo "graph variants: $variants of 12 replays bit-identical to plain calls"; rc=1
    fi
    report "qwen3-full-ep2-graph" "$log" 2 $rc
    grep -E "graph variant|entry moe_layer_[fb]wd on gpu" "$log" | sed 's/ \[NVIDIA.*\]//'
    log=$OUTDIR/qwen3-full-ep2-graph-host-counts.log
    echo "=== the same with the host-counts exchange: the capture must fail $(date +%T)"
    timeout 300 "$RUNNER" "$DIR/qwen3-full-ep2" --ranks 2 --device gpu --iters 1 --warmup 0 \
      --seed 11 --inputs "$OUTDIR/qwen3-balanced" --exchange host-counts --cuda-graph >"$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q "all_to_all (host-counts) waits on the host for the counts, which a CUDA graph capture cannot record" "$log"; then
      grep -m2 -E "all_to_all" "$log"; echo "qwen3-full-ep2-graph-host-counts: PASS (refused: exit $rc)"
    else
      tail -20 "$log"; echo "qwen3-full-ep2-graph-host-counts: FAIL (exit $rc)"; status=1
    fi
  fi
  has full || FULL_RANKS=""
  for p in $FULL_RANKS; do
    [ "$p" -le "$GPUS" ] || { echo "qwen3-full-ep$p: skipped (P = $p > $GPUS GPUs)"; continue; }
    for ex in $EXCHANGES; do
      for r in balanced skewed; do
        log=$OUTDIR/qwen3-full-ep$p-$r-$ex.log
        echo "=== qwen3-30b-a3b over $p GPUs, $r routing, $ex exchange, against one GPU $(date +%T)"
        timeout 420 "$RUNNER" "$DIR/qwen3-full-ep$p" --ranks "$p" --device gpu --iters 20 \
          --warmup 3 --seed 11 --inputs "$OUTDIR/qwen3-$r" --exchange "$ex" \
          --check-against "$DIR/qwen3-full-one" >"$log" 2>&1
        report "qwen3-full-ep$p-$r-$ex" "$log" "$p" $?
      done
    done
  done
  # Fault: kill rank 1 once the ranks time the layer; rank 0 waits in a
  # collective (NCCL) or the runner stops it.
  if has fault && [ "$GPUS" -ge 2 ]; then
    log=$OUTDIR/fault.log
    echo "=== fault: rank 1 killed mid-run ($FIRST_EXCHANGE exchange, MOE_COMM_TIMEOUT_S=30) $(date +%T)"
    MOE_COMM_TIMEOUT_S=30 "$RUNNER" "$DIR/qwen3-full-ep2" --ranks 2 --device gpu --iters 100000 \
      --warmup 0 --seed 11 --exchange "$FIRST_EXCHANGE" --progress >"$log" 2>&1 &
    parent=$!
    victim=""
    for _ in $(seq 1 240); do # until rank 1 has started its timed calls
      sleep 0.5
      grep -q "rank 1: .*entry moe_layer.* on gpu: .*timed calls" "$log" || continue
      for pid in $(pgrep -P "$parent"); do
        tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "RANK=1" && victim=$pid
      done
      break
    done
    # stop_all: the runner and its rank processes (they outlive a killed
    # parent).
    stop_all() { kill -9 $(pgrep -P "$parent") "$parent" 2>/dev/null; wait "$parent" 2>/dev/null; }
    if [ -z "$victim" ]; then
      stop_all; tail -20 "$log"; echo "fault: FAIL (rank 1 never started)"
      status=1
    else
      sleep 2
      t0=$(date +%s.%N); kill -9 "$victim"
      # At most 120 s for the runner to end (MOE_COMM_TIMEOUT_S = 30 plus
      # its grace), then it counts as a hang.
      for _ in $(seq 1 240); do kill -0 "$parent" 2>/dev/null || break; sleep 0.5; done
      if kill -0 "$parent" 2>/dev/null; then
        stop_all; rc=124
      else
        wait "$parent"; rc=$?
      fi
      t1=$(date +%s.%N)
      secs=$(python3 -c "print('%.1f' % ($t1 - $t0))")
      grep -vE "^rank [01]: moe-runner: \[" "$log" | tail -8
      if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
         grep -qE "error: --ranks 2: .*rank 1 failed \(signal 9" "$log" &&
         python3 -c "import sys; sys.exit(not $secs < 60)"; then
        echo "fault: PASS (the runner exited $rc ${secs} s after rank 1 was killed)"
      else
        echo "fault: FAIL (exit $rc after ${secs} s)"; status=1
      fi
    fi
  fi
  [ $status -eq 0 ] && echo "gpu-ep-nccl: ALL PASSED" || echo "gpu-ep-nccl: FAILED"
  exit $status
  ;;
*)
  echo "usage: $0 artifacts [DIR] | run [DIR [OUTDIR]]" >&2
  exit 2
  ;;
esac
