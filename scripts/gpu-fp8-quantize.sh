#!/usr/bin/env bash
# FP8 quantization on the GPU must be the CPU reference's bit for bit: every
# moe.quantize / moe.dequantize case of test/e2e/fp8 (e4m3/e5m2, tensor-wise,
# delayed, 1x128 and 128x128 blocks, saturation, zero blocks, specials; not
# mx_1x32, which sm_90 rejects) and test/e2e/fp8/Inputs/quantize-large.mlir
# (every recipe at larger sizes, on the NaN/inf/huge/subnormal inputs of
# Inputs/write-quantize-inputs.py) and Inputs/glu-quantize.mlir (moe.glu →
# quantize chains; the GPU side with --fp8-glu-quantize: the glu computed in
# the quantize's schedule) and Inputs/combine-grad-quantize.mlir (a
# moe.combine_grad's dy quantized both ways; the GPU side with
# --fp8-combine-grad-quantize: dy gathered in the quantize's schedule)
# are compiled for the GPU and for the CPU,
# both run, and every .npy of the two --dump directories must be the same
# bytes (FP8 is dumped as exact float32).
#
#   scripts/gpu-fp8-quantize.sh compile [BUILD_DIR [OUT_DIR]]
#       on a machine with MLIR (no GPU needed): OUT/{gpu,cpu}/<case>.{so,json},
#       OUT/in (the large cases' inputs) and, with BENCH=1,
#       OUT/bench/quantize-bench.* (bench/fp8-quantize.mlir, GPU only).
#       Defaults: build, BUILD_DIR/artifacts/fp8-quantize.
#       GPU_FLAGS (default --target=sm_90a) are the "gpu" side's moe-compile
#       flags: "--target=cpu --gpu-schedules" runs the GPU's algorithms on the
#       CPU (test/e2e/fp8/gpu-schedules.test).
#   scripts/gpu-fp8-quantize.sh run [OUT_DIR]
#       on the GPU machine (no MLIR needed): runs both sides and compares the
#       dumps; exit 0 when every case is identical. RUNNER=path/to/moe-runner
#       uses that runner, otherwise it is built standalone from runtime/ into
#       $BUILD_GPU (default build-gpu) as scripts/gpu-e2e.sh does.
#       GPU_DEVICE (default gpu) is the "gpu" side's moe-runner --device.
#       With OUT/bench present: each bench entry's median time and the
#       bandwidth it reaches (bytes read + written / time).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODE=${1:-}
FP8=$ROOT/test/e2e/fp8

cases() {
  for f in "$FP8"/*.mlir "$FP8/Inputs/quantize-large.mlir" "$FP8/Inputs/glu-quantize.mlir" \
    "$FP8/Inputs/combine-grad-quantize.mlir"; do
    case $(basename "$f") in quantize-mx-*) continue ;; esac
    echo "$f"
  done
}

case $MODE in
compile)
  set -e
  BUILD=${2:-$ROOT/build}
  OUT=${3:-$BUILD/artifacts/fp8-quantize}
  read -r -a gpu_flags <<<"${GPU_FLAGS:---target=sm_90a}"
  rm -rf "$OUT" && mkdir -p "$OUT/gpu" "$OUT/cpu"
  python3 "$FP8/Inputs/write-quantize-inputs.py" "$OUT/in"
  for f in $(cases); do
    name=$(basename "$f" .mlir)
    # glu-quantize's chains fused (the default; said here so that the
    # case keeps testing the fusion).
    # combine-grad-quantize's chain fused (off by default).
    fused=()
    [ "$name" = glu-quantize ] && fused=(--fp8-glu-quantize)
    [ "$name" = combine-grad-quantize ] && fused=(--fp8-combine-grad-quantize)
    "$BUILD/bin/moe-compile" --quiet "${gpu_flags[@]}" "${fused[@]}" "$f" -o "$OUT/gpu/$name"
    "$BUILD/bin/moe-compile" --quiet --target=cpu "$f" -o "$OUT/cpu/$name"
  done
  if [ "${BENCH:-0}" = 1 ]; then
    mkdir -p "$OUT/bench"
    "$BUILD/bin/moe-compile" --quiet "${gpu_flags[@]}" "$ROOT/bench/fp8-quantize.mlir" \
      -o "$OUT/bench/quantize-bench"
  fi
  echo "fp8-quantize: compiled $(cases | wc -l) cases into $OUT"
  ;;
run)
  OUT=${2:-$ROOT/build/artifacts/fp8-quantize}
  DEVICE=${GPU_DEVICE:-gpu}
  if [ -z "${RUNNER:-}" ]; then
    source "$ROOT/scripts/gpu-runner-build.sh"
    mkdir -p "$OUT/logs"
    moe_build_gpu_runner "$ROOT" "${BUILD_GPU:-$ROOT/build-gpu}" \
      "${CUDA_HOME:-/usr/local/cuda}" "$OUT/logs/build.log"
  fi
  source "$ROOT/scripts/compare-dumps.sh"
  status=0
  count=0
  rm -rf "$OUT/dump" && mkdir -p "$OUT/dump"
  for so in "$OUT"/gpu/*.so; do
    name=$(basename "$so" .so)
    count=$((count + 1))
    for side in gpu cpu; do
      device=$DEVICE
      [ $side = cpu ] && device=cpu
      if ! "$RUNNER" "$OUT/$side/$name" --device "$device" --inputs "$OUT/in" \
             --iters 1 --warmup 0 --dump "$OUT/dump/$side/$name" \
             >"$OUT/dump/$name.$side.log" 2>&1; then
        echo "$name: FAIL: the $side run failed"; tail -5 "$OUT/dump/$name.$side.log"
        status=1
        continue 2
      fi
    done
    moe_compare_dumps "$name" "$OUT/dump/cpu/$name" "$OUT/dump/gpu/$name" || status=1
  done
  if [ "$count" = 0 ]; then
    echo "fp8-quantize: FAIL: no artifacts in $OUT/gpu"; exit 1
  fi
  if [ -f "$OUT/bench/quantize-bench.so" ]; then
    "$RUNNER" "$OUT/bench/quantize-bench" --device "$DEVICE" --warmup 3 --iters 20 \
      >"$OUT/bench.log" 2>&1 || { tail -5 "$OUT/bench.log"; status=1; }
    grep -E "^entry|error" "$OUT/bench.log" | head -20
    python3 "$ROOT/bench/fp8-quantize-bandwidth.py" "$ROOT/bench/fp8-quantize.mlir" \
      "$OUT/bench.log" || status=1
  fi
  echo "fp8-quantize: $count cases, $([ $status = 0 ] && echo "every dump identical" || echo "SOME FAILED")"
  exit $status
  ;;
*)
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
