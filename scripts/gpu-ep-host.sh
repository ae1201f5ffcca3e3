#!/usr/bin/env bash
# Expert parallelism on ONE GPU: P ranks share it, their collectives staged
# through host memory (MOE_GPU_COMM=host; NCCL refuses two ranks on one
# device). The same runs as test/gpu/expert-parallel.test, split between a
# machine with MLIR (compile) and a GPU machine without it (run):
#
#   scripts/gpu-ep-host.sh artifacts [DIR]   here: compiles, into DIR
#                                            (default build-ep-artifacts),
#                                            each partitioned layer for
#                                            sm_90a and its one-rank layer
#                                            for the cpu (needs build/bin and
#                                            ptxas, no GPU)
#   scripts/gpu-ep-host.sh run [DIR [OUTDIR]]
#                                            on the GPU: builds
#                                            libmoe_runtime_gpu and moe-runner
#                                            from runtime/ (BUILD_GPU, default
#                                            build-gpu) and runs moe-runner
#                                            --ranks P --device gpu on each,
#                                            checked against the one-rank CPU
#                                            layer on the whole batch
#
# Layers: examples/small.mlir at P = 2 and 4 and on a [2, 2] grid (data x
# expert parallelism, experts over axis 1); the reduced qwen3 (P = 2) and
# dsv3 (P = 4, and [2, 2]) layers of test/e2e/expert-parallel/ranks-reduced.test. Every
# rank checks all 9 outputs of its forward and backward entries (out, the
# global aux loss, d_x, d_router_weight summed over the ranks, the expert
# weight gradients of its experts). Exit status 0 when all passed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODE=${1:-}
DIR=${2:-$ROOT/build-ep-artifacts}
CHIP=${MOE_GPU_CHIP:-sm_90a}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

# name  source  layout (P, or GRID@OPTIONS: ep-compile.sh)  seed
LAYERS="small-ep2:examples/small.mlir:2:3 small-ep4:examples/small.mlir:4:3
small-dpep:examples/small.mlir:2x2@axis=1+data-axes=0:3
qwen3-ep2:test/e2e/fp8/Inputs/qwen3-reduced.mlir:2:5
dsv3-ep4:test/e2e/fp8/Inputs/dsv3-reduced.mlir:4:5
dsv3-dpep:test/e2e/fp8/Inputs/dsv3-reduced.mlir:2x2@axis=1+data-axes=0:5"

case "$MODE" in
artifacts)
  set -e
  BIN=${BUILD:-$ROOT/build}/bin
  mkdir -p "$DIR"
  # shellcheck source=scripts/ep-compile.sh
  . "$ROOT/scripts/ep-compile.sh"
  for spec in $LAYERS; do
    IFS=: read -r name src layout seed <<<"$spec"
    one=$(basename "$src" .mlir)-one
    [ -f "$DIR/$one.so" ] || moe_compile_layer "$BIN" "$ROOT/$src" 1 "$DIR/$one" cpu
    moe_compile_layer "$BIN" "$ROOT/$src" "$layout" "$DIR/$name" "$CHIP" --cuda-path="$CUDA_HOME"
    echo "wrote $DIR/$name.so ($CHIP, $layout) and $DIR/$one.so (cpu)"
  done
  ;;
run)
  OUTDIR=${3:-${OUT:-$ROOT/gpu-ep-host-out}}
  BUILD=${BUILD_GPU:-$ROOT/build-gpu}
  mkdir -p "$OUTDIR"
  export PATH="$CUDA_HOME/bin:$PATH"
  # shellcheck source=scripts/gpu-runner-build.sh
  . "$ROOT/scripts/gpu-runner-build.sh"
  moe_build_gpu_runner "$ROOT" "$BUILD" "$CUDA_HOME" "$OUTDIR/build.log"
  export MOE_COMM_TIMEOUT_S=${MOE_COMM_TIMEOUT_S:-120}
  status=0
  # shellcheck source=scripts/ep-compile.sh
  . "$ROOT/scripts/ep-compile.sh"
  for spec in $LAYERS; do
    IFS=: read -r name src layout seed <<<"$spec"
    p=$(moe_layout_ranks "$layout")
    one=$(basename "$src" .mlir)-one
    log=$OUTDIR/$name.log
    echo "=== $name: moe-runner --ranks $p --device gpu, MOE_GPU_COMM=host $(date +%T)"
    MOE_GPU_COMM=host timeout 600 "$RUNNER" "$DIR/$name" --ranks "$p" --device gpu --iters 1 \
      --warmup 0 --seed "$seed" --check-against "$DIR/$one" >"$log" 2>&1
    rc=$?
    passed=$(grep -c "check: 9 outputs, 0 failed" "$log")
    if [ $rc -eq 0 ] && [ "$passed" -eq "$p" ] && ! grep -q FAIL "$log" &&
       grep -q "ranks share GPUs" "$log"; then
      grep -E "share GPUs|check:" "$log"; echo "$name: PASS"
    else
      tail -40 "$log"; echo "$name: FAIL (exit $rc, $passed of $p ranks passed)"; status=1
    fi
  done
  [ $status -eq 0 ] && echo "gpu-ep-host: ALL PASSED" || echo "gpu-ep-host: FAILED"
  exit $status
  ;;
*)
  echo "usage: $0 artifacts [DIR] | run [DIR [OUTDIR]]" >&2
  exit 2
  ;;
esac
