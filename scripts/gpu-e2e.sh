#!/usr/bin/env bash
# On a GPU machine (no MLIR needed): build libmoe_runtime_gpu and moe-runner
# standalone, then check every example's GPU artifact (forward and
# backward) against its CPU artifact (scripts/gpu-artifacts.sh made both),
# four examples at a time; then the grouped GEMM cases, the NaN layer and the
# adversarial layers where the artifacts have them.
#
#   scripts/gpu-e2e.sh [OUTDIR]     (default: $OUT, else ./gpu-e2e-out)
#   E2E_CUDA_GRAPH=1   runs the example checks with moe-runner --cuda-graph
#                      (every entry captured once and replayed: needs
#                      artifacts whose entries never wait for the host, i.e.
#                      MOE_GEMM=generated)
#   E2E_REUSE_FP8_WEIGHTS=1  (FP8 weight-input artifacts) the references
#                      compute on the FP8 weights the GPU run made
#                      (moe-runner --reuse-fp8-weights) instead of quantizing
#                      them in CPU loops: 157 s an entry at dsv3-1gpu; check
#                      the quantize kernels with scripts/gpu-fp8-quantize.sh
#
# Exit status: 0 when every check passed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/gpu-e2e-out}}
BUILD=${BUILD_GPU:-$ROOT/build-gpu}
ART=${MOE_ARTIFACTS_ROOT:-$ROOT/build/artifacts}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$OUTDIR"
export PATH="$CUDA_HOME/bin:$PATH"

source "$ROOT/scripts/gpu-runner-build.sh"
moe_build_gpu_runner "$ROOT" "$BUILD" "$CUDA_HOME" "$OUTDIR/build.log"
status=0

if [ -d "$ART/gemm" ]; then
  # The grouped GEMM cases alone (test/gpu/generated-grouped-gemm.test):
  # skewed and empty groups, partial tiles, f32 output, 300 groups,
  # epilogues, 256-column tiles; generated kernels (gpu), the same with
  # panels of 2 column tiles (gpu-panels), on 8 CTAs (gpu-c8: many tiles a
  # CTA, pingpong's consumers taking turns) and the cuBLASLt path
  # (gpu-cublaslt).
  for variant in gpu gpu-panels gpu-c8 gpu-cublaslt; do
    [ -f "$ART/gemm/$variant.so" ] || continue
    echo "=== grouped GEMMs ($variant) vs CPU reference $(date +%T)"
    if timeout 120 "$RUNNER" "$ART/gemm/$variant" --device gpu --inputs "$ART/gemm/in" --iters 1 \
         --warmup 0 --check-against "$ART/gemm/cpu" >"$OUTDIR/gemm-$variant.log" 2>&1; then
      grep -E "entry|PASS|^check:" "$OUTDIR/gemm-$variant.log" | head -40; echo "gemm $variant: PASS"
    else
      tail -40 "$OUTDIR/gemm-$variant.log"; echo "gemm $variant: FAIL"; status=1
    fi
  done
fi

if [ -d "$ART/fp8wgrad" ]; then
  # moe-fp8-placement's weight gradients on f32 operands
  # (test/gpu/fp8-wgrad.test): the blockwise transpose/quantize/dequantize
  # chain, tensorwise, an f32 db, an f32-operand grouped matmul; empty
  # groups and rows past the last group; cuBLASLt path and --gemm=generated.
  for variant in gpu gpu-generated; do
    [ -f "$ART/fp8wgrad/$variant.so" ] || continue
    echo "=== FP8 weight gradients on f32 operands ($variant) vs CPU reference $(date +%T)"
    if timeout 120 "$RUNNER" "$ART/fp8wgrad/$variant" --device gpu --inputs "$ART/fp8wgrad/in" \
         --iters 1 --warmup 0 --check-against "$ART/fp8wgrad/cpu" >"$OUTDIR/fp8wgrad-$variant.log" 2>&1; then
      grep -E "entry|PASS|^check:" "$OUTDIR/fp8wgrad-$variant.log" | head -20; echo "fp8wgrad $variant: PASS"
    else
      tail -40 "$OUTDIR/fp8wgrad-$variant.log"; echo "fp8wgrad $variant: FAIL"; status=1
    fi
  done
  # The generated FP8 weight gradients (test/gpu/fp8-weight-grad.test), at
  # the artifacts' stage count and store path.
  if [ -f "$ART/fp8wgrad/kmajor-gpu.so" ]; then
    echo "=== FP8 weight gradients, generated kernel, vs CPU reference $(date +%T)"
    if timeout 180 "$RUNNER" "$ART/fp8wgrad/kmajor-gpu" --device gpu --inputs "$ART/fp8wgrad/kmajor-in" \
         --iters 1 --warmup 0 --check-against "$ART/fp8wgrad/kmajor-cpu" \
         >"$OUTDIR/fp8wgrad-kmajor.log" 2>&1; then
      grep -E "entry|PASS|^check:" "$OUTDIR/fp8wgrad-kmajor.log" | head -20; echo "fp8wgrad kmajor: PASS"
    else
      tail -40 "$OUTDIR/fp8wgrad-kmajor.log"; echo "fp8wgrad kmajor: FAIL"; status=1
    fi
  fi
fi

echo "=== GPU vs CPU reference, fewer tokens (see scripts/gpu-artifacts.sh) $(date +%T)"
pids=()
default_examples="small seed-test mixtral-8x7b qwen3-30b-a3b dsv3-1gpu"
# The check layers with every grouped GEMM generated, where
# scripts/gpu-artifacts.sh made them (gemm=auto's full-size choice there).
for name in small seed-test qwen3-30b-a3b; do
  [ -f "$ART/check/gpu/$name-generated.so" ] && default_examples="$default_examples $name-generated"
done
# The layer whose dgrad runs the activation adjoint in pingpong tiles.
[ -f "$ART/check/gpu/fused-adjoint-layer.so" ] && default_examples="$default_examples fused-adjoint-layer"
for name in ${E2E_EXAMPLES:-$default_examples}; do
  # X-generated is X's check layer with generated GEMMs: X's reference.
  reference=${name%-generated}
  # The large-weight shapes check X_fwd and X_bwd (X itself computes what
  # X_fwd does): their CPU reference takes minutes per entry.
  entries=""
  case $name in mixtral-8x7b|dsv3-1gpu) entries="--entry moe_layer_fwd --entry moe_layer_bwd" ;; esac
  graph=""
  [ "${E2E_CUDA_GRAPH:-0}" = 1 ] && graph="--cuda-graph"
  reuse=""
  [ "${E2E_REUSE_FP8_WEIGHTS:-0}" = 1 ] && reuse="--reuse-fp8-weights"
  # Router indices may differ at near-ties (the GPU adds in another order):
  # moe_layer_fwd's scores and indices residuals say where (DESIGN.md).
  near_ties=$(python3 "$ROOT/scripts/near-tie-args.py" "$ART/check/gpu/$name.json")
  ( timeout "${E2E_TIMEOUT_S:-540}" "$RUNNER" "$ART/check/gpu/$name" --device gpu $graph \
      --check-against "$ART/check/cpu/$reference" --warmup 0 --iters 1 $entries $near_ties $reuse \
      >"$OUTDIR/check-$name.log" 2>&1
    echo "$name rc=$?" >"$OUTDIR/check-$name.rc" ) &
  pids+=($!)
done
wait "${pids[@]}"
for f in "$OUTDIR"/check-*.rc; do
  name=$(basename "$f" .rc); name=${name#check-}
  rc=$(sed 's/.*rc=//' "$f")
  echo "--- $name: rc=$rc"
  grep -E "PASS|FAIL|error|rel|near-ties" "$OUTDIR/check-$name.log" | grep -v "^\s*$" | head -40
  [ "$rc" = 0 ] || status=1
done
if [ -d "$ART/nan" ]; then
  # NaN propagation (test/e2e/nan): the GPU run is checked against the CPU
  # artifact (every output holds a NaN: declared with --expect-nonfinite), and
  # the NaN masks of both dumps must be the same.
  echo "--- nan-propagation"
  NAN=$OUTDIR/nan
  rm -rf "$NAN" && mkdir -p "$NAN"
  if "$RUNNER" "$ART/nan/gpu" --device gpu --inputs "$ART/nan/in" --iters 1 --warmup 0 \
        --dump "$NAN/gpu" --check-against "$ART/nan/cpu" --expect-nonfinite h \
        --expect-nonfinite d_gate --expect-nonfinite d_up --expect-nonfinite d_gate_up \
        --expect-nonfinite scores --expect-nonfinite res0 --expect-nonfinite d_logits \
        >"$NAN/check.log" 2>&1 &&
     "$RUNNER" "$ART/nan/cpu" --device cpu --inputs "$ART/nan/in" --iters 1 --warmup 0 \
        --dump "$NAN/cpu" >/dev/null 2>&1 &&
     python3 "$ROOT/test/e2e/nan/Inputs/nan-mask.py" "$NAN/gpu" >"$NAN/gpu.mask" &&
     python3 "$ROOT/test/e2e/nan/Inputs/nan-mask.py" "$NAN/cpu" >"$NAN/cpu.mask" &&
     [ -s "$NAN/cpu.mask" ] && diff "$NAN/cpu.mask" "$NAN/gpu.mask"; then
    echo "nan-propagation: PASS ($(wc -l <"$NAN/gpu.mask") outputs, same NaN masks)"
  else
    grep -E "FAIL|error" "$NAN/check.log" | head -20; echo "nan-propagation: FAIL"; status=1
  fi
fi
if [ -d "$ART/adversarial" ]; then
  # test/e2e/adversarial's layers (test/gpu/adversarial.test): each entry and
  # its _fwd/_bwd pair against the CPU; the outputs listed after a name hold
  # non-finite values on both sides by design (--expect-nonfinite).
  echo "--- adversarial $(date +%T)"
  ADV=$ART/adversarial
  while read -r entry expected; do
    [ -n "$entry" ] || continue
    flags=()
    for x in $expected; do flags+=(--expect-nonfinite "$x"); done
    log=$OUTDIR/adversarial-$entry.log
    if timeout 120 "$RUNNER" "$ADV/gpu" --device gpu --inputs "$ADV/in" --seed 1 --iters 1 \
         --warmup 0 --entry "$entry" --entry "${entry}_fwd" --entry "${entry}_bwd" \
         --check-against "$ADV/cpu" "${flags[@]}" >"$log" 2>&1; then
      echo "adversarial $entry: PASS ($(grep -E '^check:' "$log" | tail -1))"
    else
      grep -E "FAIL|error" "$log" | head -20; echo "adversarial $entry: FAIL"; status=1
    fi
  done <<'LAYERS'
same_k
one_expert
groups_e256
nonfinite_x out aux_loss res0 res1 res3 res5 res6 res7 res9 d_x d_router_weight d_w_gate d_w_up d_w_down
logits_softmax out aux_loss z_loss res0 res4 d_x d_logits d_w_gate d_w_up d_w_down
logits_sigmoid aux_loss z_loss res0 d_logits
gemm_overflow out res2 res5 d_x d_logits d_w_gate d_w_up d_w_down
LAYERS
fi
echo "=== done $(date +%T): $([ $status = 0 ] && echo ALL CHECKS PASSED || echo SOME CHECKS FAILED)"
exit $status
