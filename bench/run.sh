#!/usr/bin/env bash
# One script for a GPU machine: build the GPU runtime standalone (cmake/ninja,
# no LLVM needed), run its correctness test, then the grouped-GEMM benchmark
# and its PyTorch/JAX peers, and print one table.
#
#   bench/run.sh [OUTDIR]        (default: $OUT if set, else ./bench-out)
#
# Environment: BUILD_DIR (default <repo>/build-gpu), CUDA_HOME (/usr/local/cuda),
# BENCH_REPS (30), BENCH_SHAPES (all), JAX_BUDGET_S (240), SKIP_PEERS=1.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/bench-out}}
BUILD=${BUILD_DIR:-$ROOT/build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
REPS=${BENCH_REPS:-30}
SHAPES=${BENCH_SHAPES:-}
mkdir -p "$OUTDIR"
export PATH="$CUDA_HOME/bin:$PATH" PYTHONUNBUFFERED=1

step() { echo; echo "=== $* ($(date +%T))"; }

step "device"
# Read-only queries; nothing here changes the card's settings.
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv 2>&1 | tee "$OUTDIR/build.log"
nvcc --version | tail -2 | tee -a "$OUTDIR/build.log"

step "build ($BUILD)"
if ! { cmake -G Ninja -S "$ROOT/runtime" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
         -DCUDAToolkit_ROOT="$CUDA_HOME" -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" \
         -DCMAKE_CUDA_ARCHITECTURES=90 &&
       cmake --build "$BUILD" --target moe-gpu-grouped-gemm-test moe-grouped-gemm-bench; } \
     >>"$OUTDIR/build.log" 2>&1; then
  tail -40 "$OUTDIR/build.log"
  echo "FAIL: build"
  exit 1
fi
grep -i -E "warning|error" "$OUTDIR/build.log" | head -20

step "correctness test"
"$BUILD/test/gpu/moe-gpu-grouped-gemm-test" >"$OUTDIR/test.log" 2>&1
test_rc=$?
grep -E "^(FAIL|seed|device)" "$OUTDIR/test.log"
tail -1 "$OUTDIR/test.log"
if [ $test_rc -ne 0 ]; then
  echo "FAIL: correctness test (rc $test_rc); benchmark not run"
  exit 1
fi

step "benchmark: moe_runtime_gpu"
"$BUILD/bin/moe-grouped-gemm-bench" --json "$OUTDIR/ours.json" --reps "$REPS" \
  ${SHAPES:+--shapes "$SHAPES"} 2>&1 | tee "$OUTDIR/bench.log"
bench_rc=${PIPESTATUS[0]}

if [ "${SKIP_PEERS:-0}" != 1 ]; then
  step "peer: PyTorch"
  python3 "$ROOT/bench/peers.py" torch --json "$OUTDIR/torch.json" --reps "$REPS" \
    ${SHAPES:+--shapes "$SHAPES"} 2>&1 | tee -a "$OUTDIR/bench.log"
  step "peer: JAX"
  python3 "$ROOT/bench/peers.py" jax --json "$OUTDIR/jax.json" --reps "$REPS" \
    --budget "${JAX_BUDGET_S:-240}" ${SHAPES:+--shapes "$SHAPES"} 2>&1 | tee -a "$OUTDIR/bench.log"
fi

step "summary"
python3 "$ROOT/bench/report.py" "$OUTDIR" | tee "$OUTDIR/table.txt"
exit $bench_rc
