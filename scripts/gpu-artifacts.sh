#!/usr/bin/env bash
# Compiles the GPU artifacts of every example on a machine with MLIR (no GPU
# needed): what scripts/gpu-e2e.sh and bench/layer.sh run on a GPU machine.
#
#   scripts/gpu-artifacts.sh [BUILD_DIR [OUT_DIR]]
#                         (defaults: build, BUILD_DIR/artifacts; EXAMPLES="a b"
#                          restricts the examples)
#
# Writes, for each example E (forward + moe-generate-vjp's fwd/bwd entries):
#   OUT/gpu/E.{so,json}                      full benchmark shape, sm_90a
#   OUT/check/{gpu,cpu}/E.*                  the same layer with fewer tokens
#                                            (CHECK_TOKENS below), sm_90a and
#                                            cpu: the CPU reference is a plain
#                                            loop nest, too slow at full T.
#   OUT/check/gpu/<name>-generated.*         small's, seed-test's and
#                                            qwen3-30b-a3b's check layers with
#                                            every grouped GEMM generated
#                                            (what gemm=auto picks at full
#                                            size) and the epilogue fusion;
#                                            only with MOE_GEMM=auto
# The residual policy is moe-generate-vjp's recompute=$VJP_RECOMPUTE (default
# none: the backward reads the saved expert activation instead of recomputing
# it, as PyTorch's autograd does in the peer layer of bench/layer.sh; with
# out-params saving it costs the forward nothing but memory).
#   OUT/nan/{gpu,cpu}.*, OUT/nan/in          test/e2e/nan's layers and their
#                                            NaN inputs (gpu-e2e.sh compares
#                                            the NaN masks of both dumps)
#   OUT/gemm/{gpu,cpu}.*, OUT/gemm/in        test/gpu's generated grouped GEMM
#                                            cases and their group sizes;
#   OUT/gemm/gpu-c8.*                        the same on 8 CTAs (each CTA runs
#                                            many tiles: pingpong's consumers
#                                            take turns)
#   OUT/gemm/gpu-cublaslt.*                  the same cases on the cuBLASLt
#                                            path (epilogues as own kernels)
#   OUT/fp8wgrad/{gpu,gpu-generated,cpu}.*, OUT/fp8wgrad/in
#                                            test/gpu/Inputs/fp8-wgrad.mlir:
#                                            moe-fp8-placement's weight
#                                            gradients on f32 operands (and
#                                            their group sizes), cuBLASLt
#                                            path and --gemm=generated
#   OUT/fp8wgrad/kmajor-{gpu,cpu}.*, OUT/fp8wgrad/kmajor-in
#                                            test/gpu/Inputs/fp8-weight-grad.mlir:
#                                            the generated FP8 (and K-major
#                                            bf16) weight gradients
#   OUT/cublaslt/{gpu,cpu}.*                 test/gpu/Inputs/cublaslt-consumers.mlir:
#                                            cuBLASLt grouped GEMMs read by
#                                            compiled kernels (for
#                                            scripts/gpu-sanitize.sh)
#   OUT/adversarial/{gpu,cpu}.*, OUT/adversarial/in
#                                            test/e2e/adversarial's layers
#                                            (skewed routing, empty experts
#                                            and groups, non-finite x) and
#                                            their file inputs
# MOE_GEMM=generated|cublaslt|auto (default auto) picks the GPU artifacts'
# grouped GEMMs (moe-compile --gemm); MOE_GEMM_BLOCK_N=auto|128|256 (default
# auto) the generated ones' tile width (moe-compile --gemm-block-n);
# MOE_GEMM_PANEL_TILES=N (default 0: chosen) the n-tiles of a panel of their
# tile order (moe-compile --gemm-panel-tiles; 1000: m-tile after m-tile);
# MOE_GEMM_MAX_STAGES=N (default 0: as many as fit) caps their pipeline
# (moe-compile --gemm-max-stages; 3 for compute-sanitizer memcheck, which
# reports "Unknown Error" from deeper kernels that fill shared memory);
# MOE_GEMM_TMA_STORE=false stores their output tiles by threads instead of
# TMA (moe-compile --gemm-tma-store; initcheck does not see TMA stores).
# MOE_GEMM_RACECHECK_LAYOUT=true starts their operand stages 1 KB further
# into shared memory (moe-compile --gemm-racecheck-layout; racecheck takes
# stores to the stages' first bytes for accesses to the mbarriers below).
# MOE_GEMM_PINGPONG=false makes both consumer warpgroups share every
# 128 x 128 tile instead of each running whole tiles in turn (moe-compile
# --gemm-pingpong; to compare).
# MOE_GEMM_PAIRED_PROMOTION=false makes blockwise FP8 weight gradients
# wait for and promote each k-step's product before issuing the next
# (moe-compile --gemm-paired-promotion; to compare).
# MOE_DENSE_MATMULS=false keeps the router projection and its adjoint's
# contractions in the compiler's kernels instead of cuBLASLt (moe-compile
# --dense-matmuls; for racecheck, which fails inside cuBLASLt's split-K
# kernel on dsv3-1gpu).
# MOE_DEFER_HOST_WAITS=false makes the host wait for the stream before each
# cuBLASLt GEMM and TMA descriptor (moe-compile --defer-host-waits; to
# compare).
# CHECK_ONLY=1 skips the full-shape artifacts (OUT/gpu); CHECK_CPU_ONLY=1
# writes only OUT/check/cpu (scripts/cpu-hashes.sh).
# MOE_FP8_RECIPE=tensorwise|delayed|blockwise places FP8 (moe-fp8-placement
# after moe-generate-vjp, every expert GEMM) in every example's full and
# check layers; blockwise needs each check layer's T·K to be a multiple of
# 128, so mixtral-8x7b's check T is then 64 (small contracts over 32 and is
# skipped). MOE_FP8_OPTIONS adds placement options (e.g.
# "quantize-before-all-to-all=true"); MOE_FP8_WEIGHT_INPUTS=1 adds
# moe-fp8-weight-inputs (the layer takes FP8 weights, quantized by
# @moe_layer_quantize_weights); MOE_FP8_INSTRUCTIONS=false makes the
# quantize kernels convert by integer arithmetic (moe-compile
# --fp8-instructions=false) instead of cvt instructions;
# MOE_BF16_INSTRUCTIONS=false makes the kernels round f32 to bf16 by integer
# arithmetic (moe-compile --bf16-instructions=false) instead of cvt.rn (the
# same bits); MOE_FP8_GLU_QUANTIZE=false keeps the glu and the quantize of its output
# two kernels (moe-compile --fp8-glu-quantize; default true: one kernel, h
# never stored); MOE_FP8_QUANTIZE_WITH_TRANSPOSE=false quantizes each
# blockwise gradient rowwise and columnwise in two kernels (moe-compile
# --fp8-quantize-with-transpose; default true: one);
# MOE_FP8_COMBINE_GRAD_QUANTIZE=true lets that kernel gather the
# combine_grad's dy itself (moe-compile --fp8-combine-grad-quantize; dy
# never stored).
# MOE_LAYER_ALIGN=N pads every expert's rows to a multiple of N
# (moe-expand-layer{align=N} before moe-generate-vjp; 128 keeps blockwise
# FP8 weight gradients' row blocks within one expert).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/bin
CHIP=${MOE_GPU_CHIP:-sm_90a}
OUT=${2:-$BUILD/artifacts}
BLOCK_N=--gemm-block-n=${MOE_GEMM_BLOCK_N:-auto}
PANEL=--gemm-panel-tiles=${MOE_GEMM_PANEL_TILES:-0}
STAGES=--gemm-max-stages=${MOE_GEMM_MAX_STAGES:-0}
TMA_STORE=--gemm-tma-store=${MOE_GEMM_TMA_STORE:-true}
RACECHECK_LAYOUT=--gemm-racecheck-layout=${MOE_GEMM_RACECHECK_LAYOUT:-false}
PINGPONG=--gemm-pingpong=${MOE_GEMM_PINGPONG:-true}
PAIRED=--gemm-paired-promotion=${MOE_GEMM_PAIRED_PROMOTION:-true}
DENSE=--dense-matmuls=${MOE_DENSE_MATMULS:-true}
WAITS=--defer-host-waits=${MOE_DEFER_HOST_WAITS:-true}
FP8_CVT=--fp8-instructions=${MOE_FP8_INSTRUCTIONS:-true}
BF16_CVT=--bf16-instructions=${MOE_BF16_INSTRUCTIONS:-true}
GLU_QUANTIZE=--fp8-glu-quantize=${MOE_FP8_GLU_QUANTIZE:-true}
BOTH_WAYS=--fp8-quantize-with-transpose=${MOE_FP8_QUANTIZE_WITH_TRANSPOSE:-true}
COMBINE_GRAD_QUANTIZE=--fp8-combine-grad-quantize=${MOE_FP8_COMBINE_GRAD_QUANTIZE:-false}
RECOMPUTE=${VJP_RECOMPUTE:-none}
# compile_layer SRC GEMM OUT: an example's layer for $CHIP with the GEMM
# backend GEMM and every option above.
compile_layer() {
  "$BIN/moe-compile" --quiet "$1" --target="$CHIP" --gemm="$2" "$BLOCK_N" "$PANEL" "$STAGES" "$TMA_STORE" "$RACECHECK_LAYOUT" "$PINGPONG" "$PAIRED" "$DENSE" "$WAITS" "$FP8_CVT" "$BF16_CVT" "$GLU_QUANTIZE" "$BOTH_WAYS" "$COMBINE_GRAD_QUANTIZE" "${@:4}" -o "$3"
}
mkdir -p "$OUT/gpu" "$OUT/check/gpu" "$OUT/check/cpu" "$OUT/src"

# name  full-T  check-T  (dsv3's sequence aux loss: seq_length = check-T / 2)
CHECK_TOKENS="seed-test:32768:256 mixtral-8x7b:8192:16 qwen3-30b-a3b:16384:128 dsv3-1gpu:4096:32 small:64:64"
FP8=${MOE_FP8_RECIPE:-}
if [ -n "$FP8" ]; then
  CHECK_TOKENS="seed-test:32768:256 mixtral-8x7b:8192:64 qwen3-30b-a3b:16384:128 dsv3-1gpu:4096:32"
fi
# moe-generate-vjp (after moe-expand-layer{align} where MOE_LAYER_ALIGN asks
# for it), then moe-fp8-placement where MOE_FP8_RECIPE asks for it.
differentiate() {
  local in=$1 out=$2
  if [ -n "${MOE_LAYER_ALIGN:-}" ]; then
    "$BIN/moe-opt" "$in" --moe-expand-layer="align=$MOE_LAYER_ALIGN" -o "$out.expanded"
    in=$out.expanded
  fi
  if [ -n "$FP8" ]; then
    local weightInputs=()
    [ "${MOE_FP8_WEIGHT_INPUTS:-0}" = 1 ] && weightInputs=(--moe-fp8-weight-inputs)
    "$BIN/moe-opt" "$in" --moe-generate-vjp="recompute=$RECOMPUTE" \
      --moe-fp8-placement="recipe=$FP8${MOE_FP8_OPTIONS:+ $MOE_FP8_OPTIONS}" \
      ${weightInputs[@]+"${weightInputs[@]}"} -o "$out"
  else
    "$BIN/moe-opt" "$in" --moe-generate-vjp="recompute=$RECOMPUTE" -o "$out"
  fi
}

for spec in $CHECK_TOKENS; do
  IFS=: read -r name full small <<<"$spec"
  if [ -n "${EXAMPLES:-}" ] && ! [[ " $EXAMPLES " == *" $name "* ]]; then continue; fi
  src=$ROOT/examples/$name.mlir
  echo "== $name (T=$full; check T=$small)"
  if [ "${CHECK_ONLY:-0}" != 1 ] && [ "${CHECK_CPU_ONLY:-0}" != 1 ]; then
    differentiate "$src" "$OUT/src/$name.mlir"
    compile_layer "$OUT/src/$name.mlir" "${MOE_GEMM:-auto}" "$OUT/gpu/$name"
  fi
  sed -e "s/tensor<${full}x/tensor<${small}x/g" \
      -e "s/seq_length = ${full} : i64/seq_length = $((small / 2)) : i64/" \
      "$src" >"$OUT/src/$name-check.in.mlir"
  differentiate "$OUT/src/$name-check.in.mlir" "$OUT/src/$name-check.mlir"
  [ "${CHECK_CPU_ONLY:-0}" = 1 ] ||
    compile_layer "$OUT/src/$name-check.mlir" "${MOE_GEMM:-auto}" "$OUT/check/gpu/$name"
  "$BIN/moe-compile" --quiet "$OUT/src/$name-check.mlir" --target=cpu -o "$OUT/check/cpu/$name"
  # At full size gemm=auto gives seed-test's, qwen3-30b-a3b's and
  # dsv3-1gpu's grouped GEMMs generated kernels, at check size cuBLASLt
  # (few rows a group): those check layers (not dsv3-1gpu's, whose
  # backward's CPU reference takes minutes), and small's, once more with
  # every grouped GEMM generated and the activation adjoint in the dgrad
  # epilogue
  # (--gemm-epilogue-fusion; check/gpu/<name>-generated; scripts/gpu-e2e.sh
  # compares each with check/cpu/<name>).
  case $name in small|seed-test|qwen3-30b-a3b)
    if [ "${MOE_GEMM:-auto}" = auto ] && [ "${CHECK_CPU_ONLY:-0}" != 1 ]; then
      compile_layer "$OUT/src/$name-check.mlir" generated "$OUT/check/gpu/$name-generated" \
        --gemm-epilogue-fusion=true
    fi ;;
  esac
done
# A bf16 layer whose down projection's dgrad runs pingpong tiles with the
# activation adjoint in its epilogue (the staged epilogue; the examples'
# check layers have too few rows a group for pingpong tiles).
if [ "${CHECK_CPU_ONLY:-0}" != 1 ] && [ -z "$FP8" ]; then
  echo "== fused-adjoint-layer (test/gpu/Inputs/fused-adjoint-layer.mlir)"
  differentiate "$ROOT/test/gpu/Inputs/fused-adjoint-layer.mlir" "$OUT/src/fused-adjoint-layer.mlir"
  compile_layer "$OUT/src/fused-adjoint-layer.mlir" generated "$OUT/check/gpu/fused-adjoint-layer" \
    --gemm-epilogue-fusion=true
  "$BIN/moe-compile" --quiet "$OUT/src/fused-adjoint-layer.mlir" --target=cpu -o "$OUT/check/cpu/fused-adjoint-layer"
fi
if [ "${CHECK_CPU_ONLY:-0}" != 1 ] && [ -z "${EXAMPLES:-}" ]; then
  echo "== nan-propagation (test/e2e/nan)"
  rm -rf "$OUT/nan" && mkdir -p "$OUT/nan"
  python3 "$ROOT/test/e2e/nan/Inputs/write-inputs.py" "$OUT/nan/in"
  "$BIN/moe-opt" "$ROOT/test/e2e/nan/Inputs/nan-ops.mlir" --moe-generate-vjp -o "$OUT/src/nan-ops.mlir"
  "$BIN/moe-compile" --quiet "$OUT/src/nan-ops.mlir" --target="$CHIP" -o "$OUT/nan/gpu"
  "$BIN/moe-compile" --quiet "$OUT/src/nan-ops.mlir" --target=cpu -o "$OUT/nan/cpu"
  echo "== generated grouped GEMMs (test/gpu/Inputs/generated-grouped-gemm.mlir)"
  rm -rf "$OUT/gemm" && mkdir -p "$OUT/gemm"
  python3 "$ROOT/test/gpu/Inputs/write-group-sizes.py" "$OUT/gemm/in"
  gemms=$ROOT/test/gpu/Inputs/generated-grouped-gemm.mlir
  # $DENSE too: gate_up_layer's router matmul is otherwise cuBLASLt's, whose
  # TMA-stored product initcheck reports at every read (6094 reports, one
  # H200, bench/results/2026-11-30-h200x2-sanitize-lookahead run1).
  "$BIN/moe-compile" --quiet "$gemms" --target="$CHIP" --gemm=generated "$BLOCK_N" "$PANEL" "$STAGES" "$TMA_STORE" "$RACECHECK_LAYOUT" "$PINGPONG" "$PAIRED" "$DENSE" -o "$OUT/gemm/gpu"
  "$BIN/moe-compile" --quiet "$gemms" --target="$CHIP" --gemm=generated "$BLOCK_N" --gemm-panel-tiles=2 "$STAGES" "$TMA_STORE" "$RACECHECK_LAYOUT" "$PINGPONG" "$PAIRED" "$DENSE" -o "$OUT/gemm/gpu-panels"
  "$BIN/moe-compile" --quiet "$gemms" --target="$CHIP" --gemm=generated "$BLOCK_N" "$STAGES" "$TMA_STORE" "$RACECHECK_LAYOUT" "$PINGPONG" "$PAIRED" "$DENSE" --gemm-ctas=8 -o "$OUT/gemm/gpu-c8"
  "$BIN/moe-compile" --quiet "$gemms" --target="$CHIP" --gemm=cublaslt -o "$OUT/gemm/gpu-cublaslt"
  "$BIN/moe-compile" --quiet "$gemms" --target=cpu -o "$OUT/gemm/cpu"
  echo "== FP8 weight gradients on f32 operands (test/gpu/Inputs/fp8-wgrad.mlir)"
  rm -rf "$OUT/fp8wgrad" && mkdir -p "$OUT/fp8wgrad"
  python3 "$ROOT/test/gpu/Inputs/write-fp8-wgrad-sizes.py" "$OUT/fp8wgrad/in"
  wgrads=$ROOT/test/gpu/Inputs/fp8-wgrad.mlir
  "$BIN/moe-compile" --quiet "$wgrads" --target="$CHIP" -o "$OUT/fp8wgrad/gpu"
  "$BIN/moe-compile" --quiet "$wgrads" --target="$CHIP" --gemm=generated -o "$OUT/fp8wgrad/gpu-generated"
  "$BIN/moe-compile" --quiet "$wgrads" --target=cpu -o "$OUT/fp8wgrad/cpu"
  echo "== FP8 weight gradients in the generated kernel (test/gpu/Inputs/fp8-weight-grad.mlir)"
  python3 "$ROOT/test/gpu/Inputs/write-fp8-group-sizes.py" "$OUT/fp8wgrad/kmajor-in"
  kmajor=$ROOT/test/gpu/Inputs/fp8-weight-grad.mlir
  "$BIN/moe-compile" --quiet "$kmajor" --target="$CHIP" --gemm=generated "$STAGES" "$TMA_STORE" "$RACECHECK_LAYOUT" "$PINGPONG" "$PAIRED" \
    -o "$OUT/fp8wgrad/kmajor-gpu"
  "$BIN/moe-compile" --quiet "$kmajor" --target=cpu -o "$OUT/fp8wgrad/kmajor-cpu"
  echo "== cuBLASLt grouped GEMMs and their consumers (test/gpu/Inputs/cublaslt-consumers.mlir)"
  rm -rf "$OUT/cublaslt" && mkdir -p "$OUT/cublaslt"
  "$BIN/moe-compile" --quiet "$ROOT/test/gpu/Inputs/cublaslt-consumers.mlir" --target="$CHIP" \
    --gemm=cublaslt -o "$OUT/cublaslt/gpu"
  "$BIN/moe-compile" --quiet "$ROOT/test/gpu/Inputs/cublaslt-consumers.mlir" --target=cpu \
    -o "$OUT/cublaslt/cpu"
  echo "== adversarial layers (test/e2e/adversarial/Inputs/layers.mlir)"
  rm -rf "$OUT/adversarial" && mkdir -p "$OUT/adversarial"
  python3 "$ROOT/test/e2e/adversarial/Inputs/write-inputs.py" "$OUT/adversarial/in"
  "$BIN/moe-opt" "$ROOT/test/e2e/adversarial/Inputs/layers.mlir" --moe-generate-vjp \
    -o "$OUT/src/adversarial.mlir"
  "$BIN/moe-compile" --quiet "$OUT/src/adversarial.mlir" --target="$CHIP" --gemm="${MOE_GEMM:-auto}" "$BLOCK_N" "$PANEL" "$STAGES" "$TMA_STORE" "$RACECHECK_LAYOUT" "$PINGPONG" "$PAIRED" "$DENSE" "$WAITS" \
    -o "$OUT/adversarial/gpu"
  "$BIN/moe-compile" --quiet "$OUT/src/adversarial.mlir" --target=cpu -o "$OUT/adversarial/cpu"
fi
echo "artifacts: $(find "$OUT/gpu" "$OUT/check" -name '*.so' | wc -l)"
