#!/usr/bin/env bash
# Transposes on the GPU (convert-linalg-transpose-to-tiles: a block per tile
# staged in shared memory) must be the CPU reference's bit for bit: every
# entry of test/e2e/transpose/Inputs/transposes.mlir (FP8, bf16/f16,
# f32/i32; 2-D and batched; partial tiles, odd row lengths, tiny shapes;
# other permutations on the generic path) is compiled for the GPU and for
# the CPU, both run, and every .npy of the two --dump directories must be
# the same bytes.
#
#   scripts/gpu-transpose.sh compile [BUILD_DIR [OUT_DIR]]
#       on a machine with MLIR (no GPU needed): OUT/{gpu,cpu}/transposes.*,
#       OUT/in (the integer input) and, with BENCH=1, bench/transpose.mlir
#       as OUT/bench/tiled.* and, to compare, OUT/bench/generic.*
#       (--tiled-transposes=false: one thread per element), GPU only.
#       Defaults: build, BUILD_DIR/artifacts/transpose.
#       GPU_FLAGS (default --target=sm_90a) are the "gpu" side's moe-compile
#       flags: "--target=cpu --gpu-schedules" runs the tiles' loops on the
#       CPU, blocks and threads in order
#       (test/e2e/transpose/gpu-schedules.test).
#   scripts/gpu-transpose.sh run [OUT_DIR]
#       on the GPU machine (no MLIR needed): runs both sides and compares the
#       dumps; exit 0 when every entry is identical. RUNNER=path/to/moe-runner
#       uses that runner, otherwise it is built standalone from runtime/ into
#       $BUILD_GPU (default build-gpu) as scripts/gpu-e2e.sh does.
#       GPU_DEVICE (default gpu) is the "gpu" side's moe-runner --device.
#       With OUT/bench present: each bench entry's median time and bandwidth
#       (bytes read + written / time), tiled and generic, and the tiled
#       artifact's per-kernel profile (moe-runner --profile).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODE=${1:-}
INPUTS=$ROOT/test/e2e/transpose/Inputs

case $MODE in
compile)
  set -e
  BUILD=${2:-$ROOT/build}
  OUT=${3:-$BUILD/artifacts/transpose}
  read -r -a gpu_flags <<<"${GPU_FLAGS:---target=sm_90a}"
  rm -rf "$OUT" && mkdir -p "$OUT/gpu" "$OUT/cpu"
  python3 "$INPUTS/write-transpose-inputs.py" "$OUT/in"
  "$BUILD/bin/moe-compile" --quiet "${gpu_flags[@]}" "$INPUTS/transposes.mlir" \
    -o "$OUT/gpu/transposes"
  "$BUILD/bin/moe-compile" --quiet --target=cpu "$INPUTS/transposes.mlir" \
    -o "$OUT/cpu/transposes"
  if [ "${BENCH:-0}" = 1 ]; then
    mkdir -p "$OUT/bench"
    "$BUILD/bin/moe-compile" --quiet "${gpu_flags[@]}" "$ROOT/bench/transpose.mlir" \
      -o "$OUT/bench/tiled"
    "$BUILD/bin/moe-compile" --quiet "${gpu_flags[@]}" --tiled-transposes=false \
      "$ROOT/bench/transpose.mlir" -o "$OUT/bench/generic"
  fi
  echo "transpose: compiled $INPUTS/transposes.mlir into $OUT"
  ;;
run)
  OUT=${2:-$ROOT/build/artifacts/transpose}
  DEVICE=${GPU_DEVICE:-gpu}
  if [ -z "${RUNNER:-}" ]; then
    source "$ROOT/scripts/gpu-runner-build.sh"
    mkdir -p "$OUT/logs"
    moe_build_gpu_runner "$ROOT" "${BUILD_GPU:-$ROOT/build-gpu}" \
      "${CUDA_HOME:-/usr/local/cuda}" "$OUT/logs/build.log"
  fi
  status=0
  rm -rf "$OUT/dump" && mkdir -p "$OUT/dump"
  for side in gpu cpu; do
    device=$DEVICE
    [ $side = cpu ] && device=cpu
    if ! "$RUNNER" "$OUT/$side/transposes" --device "$device" --inputs "$OUT/in" \
           --iters 1 --warmup 0 --dump "$OUT/dump/$side" \
           >"$OUT/dump/$side.log" 2>&1; then
      echo "transpose: FAIL: the $side run failed"; tail -5 "$OUT/dump/$side.log"
      exit 1
    fi
  done
  source "$ROOT/scripts/compare-dumps.sh"
  count=0
  for dir in "$OUT"/dump/cpu/*/; do
    entry=$(basename "$dir")
    count=$((count + 1))
    moe_compare_dumps "$entry" "$OUT/dump/cpu/$entry" "$OUT/dump/gpu/$entry" || status=1
  done
  if [ "$count" = 0 ]; then
    echo "transpose: FAIL: no entries dumped in $OUT/dump/cpu"; exit 1
  fi
  if [ -f "$OUT/bench/tiled.so" ]; then
    for variant in tiled generic; do
      echo "=== bench: $variant"
      "$RUNNER" "$OUT/bench/$variant" --device "$DEVICE" --warmup 3 --iters 20 \
        >"$OUT/bench.$variant.log" 2>&1 || { tail -5 "$OUT/bench.$variant.log"; status=1; }
      python3 "$ROOT/bench/fp8-quantize-bandwidth.py" "$ROOT/bench/transpose.mlir" \
        "$OUT/bench.$variant.log" || status=1
    done
    echo "=== profile: tiled"
    "$RUNNER" "$OUT/bench/tiled" --device "$DEVICE" --warmup 3 --iters 20 --profile \
      >"$OUT/bench.profile.log" 2>&1 || status=1
    cat "$OUT/bench.profile.log"
  fi
  echo "transpose: $count entries, $([ $status = 0 ] && echo "every dump identical" || echo "SOME FAILED")"
  exit $status
  ;;
*)
  sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
