#!/usr/bin/env bash
# FP8 blockwise against our own bf16 layer (DESIGN.md's FP8 targets), one GPU:
# each shape's bf16 and FP8 artifacts timed in the same call on the same
# routing inputs (bench/make_routing_inputs.py, balanced and skewed), forward
# (moe_layer_fwd) and backward (moe_layer_bwd), median of BENCH_REPS after
# BENCH_WARMUP; the dense bf16 and FP8 8192^3 ceilings of the same GPU
# (bench/dense_ceilings.py) before and after. The FP8 layers take FP8
# weights (moe-fp8-weight-inputs): their once-a-step weight quantization
# (moe_layer_quantize_weights) is timed on its own and reported apart.
#
#   bench/fp8-layer.sh BF16_ART FP8_ART OUTDIR
#       BF16_ART, FP8_ART: scripts/gpu-artifacts.sh's OUT/gpu (bf16, and
#       MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1), <shape>.{so,json}
#   env: FP8_VARIANT_ART (a second FP8 root, e.g. compiled with
#        MOE_FP8_OPTIONS="gemms=fc1,fc2,forward,dgrad": bf16 weight
#        gradients) timed in the same call on the same inputs, its columns
#        labelled FP8_VARIANT_LABEL (default "FP8 variant"),
#        BENCH_SHAPES (comma list, all four), BENCH_ROUTINGS (balanced,skewed),
#        BENCH_REPS (20), BENCH_WARMUP (3), MOE_RUNNER (moe-runner binary),
#        PY (python3 with torch and numpy), RUNNER_TIMEOUT_S (per runner call;
#        default 240, dsv3-1gpu 360: each of its calls draws 22 GB of bf16
#        weights on the host, and its FP8 balanced call took over 200 s on
#        one H200)
# Writes OUTDIR/{bf16,fp8,fp8v}-<shape>-<routing>.{json,log}, ceilings-*.json,
# and prints bench/report_fp8.py's table (also OUTDIR/fp8.md). Exits 1 when
# any routing input, runner call or the report failed (the table then has
# "missing" cells).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 3 ]; then
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
BF16=$1 FP8=$2 OUTDIR=$3
PY=${PY:-python3}
RUNNER=${MOE_RUNNER:-$ROOT/build/bin/moe-runner}
SHAPES=${BENCH_SHAPES:-seed-test,mixtral-8x7b,qwen3-30b-a3b,dsv3-1gpu}
ROUTINGS=${BENCH_ROUTINGS:-balanced,skewed}
REPS=${BENCH_REPS:-20} WARMUP=${BENCH_WARMUP:-3}
IN=$OUTDIR/inputs
mkdir -p "$OUTDIR" "$IN"
[ -x "$RUNNER" ] || { echo "fp8-layer: no moe-runner at $RUNNER (set MOE_RUNNER)" >&2; exit 1; }
fail=0

ceilings() { # NAME
  "$PY" "$ROOT/bench/dense_ceilings.py" >"$OUTDIR/ceilings-$1.json" 2>"$OUTDIR/ceilings-$1.log" ||
    echo "fp8-layer: dense ceilings ($1) failed: $(tail -1 "$OUTDIR/ceilings-$1.log")" >&2
}
ceilings start
IFS=, read -r -a shape_list <<<"$SHAPES"
IFS=, read -r -a routing_list <<<"$ROUTINGS"
for s in "${shape_list[@]}"; do
  for r in "${routing_list[@]}"; do
    rm -rf "${IN:?}/$s-$r"
    if ! "$PY" "$ROOT/bench/make_routing_inputs.py" "$s" "$r" --out "$IN/$s-$r" \
        --json "$OUTDIR/routing-$s-$r.json" --quiet >"$OUTDIR/inputs-$s-$r.log" 2>&1; then
      echo "fp8-layer: routing inputs $s $r failed: $(tail -1 "$OUTDIR/inputs-$s-$r.log")" >&2
      fail=1
      continue
    fi
    for kind in bf16 fp8 ${FP8_VARIANT_ART:+fp8v}; do
      art=$BF16
      [ $kind = fp8 ] && art=$FP8
      [ $kind = fp8v ] && art=$FP8_VARIANT_ART
      entries=(--entry moe_layer_fwd --entry moe_layer_bwd)
      [ $kind = fp8 ] && [ "$r" = balanced ] && entries+=(--entry moe_layer_quantize_weights)
      limit=240
      [ "$s" = dsv3-1gpu ] && limit=360
      timeout "${RUNNER_TIMEOUT_S:-$limit}" "$RUNNER" "$art/$s" --device gpu "${entries[@]}" \
        --inputs "$IN/$s-$r" --warmup "$WARMUP" --iters "$REPS" --json \
        >"$OUTDIR/$kind-$s-$r.json" 2>"$OUTDIR/$kind-$s-$r.log"
      rc=$?
      printf '%-5s %-14s %-8s rc=%s\n' "$kind" "$s" "$r" "$rc"
      [ $rc -eq 0 ] || { fail=1; grep -m2 'error' "$OUTDIR/$kind-$s-$r.log" | cut -c1-200; }
    done
  done
done
ceilings end
FP8_VARIANT_LABEL=${FP8_VARIANT_LABEL:-FP8 variant} "$PY" "$ROOT/bench/report_fp8.py" "$OUTDIR" |
  tee "$OUTDIR/fp8.md"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
exit $fail
