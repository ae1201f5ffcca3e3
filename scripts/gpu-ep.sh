#!/usr/bin/env bash
# On a GPU machine (no MLIR needed): the expert-parallel runtime over NCCL.
# Builds libmoe_runtime_gpu (with NCCL), moe-runner and the NCCL collectives'
# test standalone from runtime/, then
#   1. moe-gpu-collectives-test with P = 1 and, when the machine has them,
#      P = 2 and 4 GPUs (one rank per GPU): the ragged all-to-all with
#      chunked counts in device memory (both exchanges; the device one also
#      replayed from a CUDA graph) and the all-reduce against values
#      computed from the send pattern; at P = 2 also the device exchange's
#      faults (a rank that never comes, ranks that disagree on shapes);
#   2. moe-runner --ranks P --device gpu on the hand-made GPU artifact of
#      test/runner/Inputs/fake_ep.c (FAKE_EP_GPU: two moert_entry_coll_all_to_all
#      and one moert_entry_coll_all_reduce over NCCL) against its one-rank CPU
#      reference on the whole batch, P = 1, 2, 4 as GPUs allow.
#
#   scripts/gpu-ep.sh [OUTDIR]      (default: $OUT, else ./gpu-ep-out)
#   NCCL_ROOT=DIR                   NCCL headers and library of one install
#                                   (default: moe_default_nccl_root)
#
# Exit status: 0 when everything passed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/gpu-ep-out}}
BUILD=${BUILD_GPU:-$ROOT/build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$OUTDIR"
export PATH="$CUDA_HOME/bin:$PATH"
# shellcheck source=scripts/gpu-runner-build.sh
. "$ROOT/scripts/gpu-runner-build.sh"
moe_default_nccl_root

echo "=== build runtime + moe-runner + collectives test ($BUILD) $(date +%T)"
if ! { cmake -G Ninja -S "$ROOT/runtime" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
         -DCUDAToolkit_ROOT="$CUDA_HOME" -DMOE_GPU_BUILD_BENCH=OFF \
         ${NCCL_ROOT:+-DNCCL_ROOT="$NCCL_ROOT"} &&
       cmake --build "$BUILD" --target moe-runner moe_runtime_gpu moe-gpu-collectives-test; } \
       >"$OUTDIR/build.log" 2>&1; then
  tail -30 "$OUTDIR/build.log"; echo "FAIL: build"; exit 1
fi
grep -E "moe_runtime_gpu: (NCCL|CUDA)" "$OUTDIR/build.log"
if grep -q "NCCL not found" "$OUTDIR/build.log"; then
  echo "FAIL: libmoe_runtime_gpu was built without NCCL (set NCCL_ROOT)"; exit 1
fi
RUNNER=$(find "$BUILD" -name moe-runner -type f -perm -u+x | head -1)
COLL=$(find "$BUILD" -name moe-gpu-collectives-test -type f -perm -u+x | head -1)
MOE_RUNTIME_GPU_LIB=$(find "$BUILD" -name 'libmoe_runtime_gpu.so' | head -1)
export MOE_RUNTIME_GPU_LIB
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
echo "runner: $RUNNER  gpu lib: $MOE_RUNTIME_GPU_LIB  GPUs: $GPUS"
export MOE_COMM_TIMEOUT_S=${MOE_COMM_TIMEOUT_S:-120}
status=0

RANKS="1"
[ "$GPUS" -ge 2 ] && RANKS="$RANKS 2"
[ "$GPUS" -ge 4 ] && RANKS="$RANKS 4"

for p in $RANKS; do
  echo "=== NCCL collectives, P = $p $(date +%T)"
  if timeout 300 "$COLL" "$p" >"$OUTDIR/collectives-$p.log" 2>&1 &&
     ! grep -q FAIL "$OUTDIR/collectives-$p.log"; then
    grep -E "checks|ALL PASSED" "$OUTDIR/collectives-$p.log"; echo "collectives P=$p: PASS"
  else
    tail -30 "$OUTDIR/collectives-$p.log"; echo "collectives P=$p: FAIL"; status=1
  fi
done

# The device exchange's faults (P = 2): a rank that never comes (rank 0
# must fail within MOE_COMM_TIMEOUT_S = 10 s naming it) and ranks that
# disagree on shapes (both must stop with the mismatch).
if [ "$GPUS" -ge 2 ]; then
  for kind in timeout shapes; do
    echo "=== device exchange fault: $kind $(date +%T)"
    if MOE_COMM_TIMEOUT_S=10 timeout 120 "$COLL" 2 --fault "$kind" >"$OUTDIR/fault-$kind.log" 2>&1 &&
       ! grep -q FAIL "$OUTDIR/fault-$kind.log"; then
      grep -E "^fault " "$OUTDIR/fault-$kind.log"; echo "device exchange fault $kind: PASS"
    else
      tail -20 "$OUTDIR/fault-$kind.log"; echo "device exchange fault $kind: FAIL"; status=1
    fi
  done
fi

# The hand-made GPU artifact (device pointers; moert_entry_coll_* over NCCL)
# and its one-rank CPU reference, per P; sizes: how each rank splits its 3
# rows over the P destinations.
ART="$OUTDIR/fake-ep"
mkdir -p "$ART"
for p in $RANKS; do
  cc -O1 -shared -fPIC -DFAKE_EP_RANKS=$p -DFAKE_EP_GPU -I"$ROOT/runtime/include" \
     -I"$ROOT/runtime/gpu/include" "$ROOT/test/runner/Inputs/fake_ep.c" -o "$ART/gpu_$p.so" &&
  cc -O1 -shared -fPIC -DFAKE_EP_RANKS=$p -DFAKE_EP_ONE_RANK -I"$ROOT/runtime/include" \
     "$ROOT/test/runner/Inputs/fake_ep.c" -o "$ART/ref_$p.so" || { echo "FAIL: cc"; exit 1; }
  python3 - "$ART" "$p" "$ROOT/scripts" <<'PY'
import json, os, sys
art, p, scripts = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, scripts)
import npy
def arg(name, role, io, shape, dtype="f32", split=False):
    d = {"name": name, "role": role, "io": io, "shape": shape, "dtype": dtype}
    if split:
        d["split_dim"] = 0
    return d
for kind, rows in (("gpu", 3), ("ref", 3 * p)):
    split = kind == "gpu"
    spec = {"format": "moe-artifact-1", "target": "sm_90a" if split else "cpu",
            "source": "test/runner/Inputs/fake_ep.c",
            "entries": [{"name": "exchange", "symbol": "exchange_packed", "args": [
                arg("x", "input", "in", [rows, 2], split=split),
                arg("sizes", "input", "in", [p], dtype="i32"),
                arg("back", "output", "out", [rows, 2], split=split),
                arg("first", "output", "out", [2])]}]}
    if split:
        spec["grids"] = [{"name": "ep", "shape": [p]}]
    with open(os.path.join(art, "%s_%d.json" % (kind, p)), "w") as f:
        json.dump(spec, f, indent=1)
# Uneven: rank q gets (q % 2) + 1 rows while they last, the rest to rank 0.
sizes, left = [0] * p, 3
for q in range(1, p):
    sizes[q] = min(left, q % 2 + 1)
    left -= sizes[q]
sizes[0] = left
os.makedirs(os.path.join(art, "in_%d" % p), exist_ok=True)
npy.write(os.path.join(art, "in_%d" % p, "sizes.npy"), "<i4", (p,), sizes)
PY
  echo "=== moe-runner --ranks $p --device gpu (NCCL) vs the one-rank CPU reference $(date +%T)"
  if timeout 300 "$RUNNER" "$ART/gpu_$p" --ranks "$p" --device gpu --inputs "$ART/in_$p" \
       --iters 3 --warmup 1 --check-against "$ART/ref_$p" >"$OUTDIR/runner-$p.log" 2>&1; then
    grep -E "entry|PASS|check:" "$OUTDIR/runner-$p.log"; echo "runner P=$p: PASS"
  else
    tail -30 "$OUTDIR/runner-$p.log"; echo "runner P=$p: FAIL"; status=1
  fi
done

# A library without NCCL must say so (not crash): the runner with
# MOE_RUNTIME_GPU_LIB pointing at this build is always NCCL-enabled here, so
# only the message of a deliberate misuse is checked: a rank count that is
# not the artifact's world size.
if [ "$GPUS" -ge 1 ]; then
  "$RUNNER" "$ART/gpu_1" --ranks 2 --device gpu >"$OUTDIR/world.log" 2>&1
  if grep -q "the artifact runs on 1 rank" "$OUTDIR/world.log"; then
    echo "world-size error: PASS"
  else
    cat "$OUTDIR/world.log"; echo "world-size error: FAIL"; status=1
  fi
fi

[ $status -eq 0 ] && echo "gpu-ep: ALL PASSED" || echo "gpu-ep: FAILED"
exit $status
