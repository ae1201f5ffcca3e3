#!/usr/bin/env bash
# On a GPU machine (no MLIR needed): build libmoe_runtime_gpu and moe-runner
# standalone (as scripts/gpu-e2e.sh does; an existing $BUILD_GPU is reused
# incrementally), then run the GPU artifacts that scripts/gpu-artifacts.sh
# made under NVIDIA compute-sanitizer and print one line per (artifact, tool)
# with its error count, and an overall verdict.
#
#   scripts/gpu-sanitize.sh [OUTDIR]   (default: $OUT, else ./gpu-sanitize-out)
#
# Artifacts (SANITIZE_ARTIFACTS, space-separated; default all of them):
#   small seed-test qwen3-30b-a3b      ART/check/gpu/<name>: every entry
#   fused-adjoint-layer                (moe_layer, moe_layer_fwd, moe_layer_bwd);
#                                      fused-adjoint-layer's dgrad runs
#                                      pingpong tiles with the activation
#                                      adjoint in their staged epilogue
#   mixtral-8x7b dsv3-1gpu             ART/check/gpu/<name>: moe_layer_bwd only,
#                                      which runs moe_layer_fwd in the same
#                                      process first for its residuals, so both
#                                      are sanitized (their weights are 2.8 and
#                                      22 GB: one forward less saves minutes)
#   gemm                               ART/gemm/gpu: the generated grouped GEMM
#                                      cases (TMA + wgmma, shared memory)
#   nan                                ART/nan/gpu: NaN in glu and router inputs
#   fp8wgrad                           ART/fp8wgrad/kmajor-gpu: the generated
#                                      FP8 weight gradients (K-major
#                                      operands; several tiles a CTA too;
#                                      racecheck covers them, synccheck
#                                      skips them as every generated GEMM)
#   cublaslt                           ART/cublaslt/gpu: cuBLASLt grouped GEMMs
#                                      (kn, nk, a zeroed tail, a weight
#                                      gradient) each read by a compiled kernel,
#                                      checked against ART/cublaslt/cpu: a
#                                      report with values that pass is a write
#                                      the tool did not see, one with values
#                                      that fail an element left unwritten.
#                                      Its initcheck reports (cuBLASLt stores
#                                      by TMA, which initcheck does not see)
#                                      are listed as UNSEEN-WRITES and do not
#                                      fail the run while every value passes
#                                      and every report is an uninitialized
#                                      read in a compiled kernel; else
#                                      FINDINGS
#   adversarial                        ART/adversarial/gpu: skewed routing, empty
#                                      experts and groups, non-finite x, T = 37
# Tools (SANITIZE_TOOLS; default "memcheck initcheck racecheck synccheck"):
# memcheck and initcheck run on every artifact, SANITIZE_JOBS at a time;
# racecheck and synccheck only on the artifacts whose kernels use shared
# memory (SANITIZE_SHARED_ARTIFACTS, default "gemm fp8wgrad": the compiler's other
# kernels use none; add examples built with MOE_GEMM=generated to check
# their generated GEMMs in place), after the others and one at a time (on
# one H200 racecheck's runs failed to launch the generated GEMMs while other
# sanitizer processes shared the GPU, and ran clean alone), from the
# artifacts under SANITIZE_SHARED_ROOT (default: the same root).
# Sanitizer builds: MOE_GEMM=generated MOE_GEMM_MAX_STAGES=3
# MOE_GEMM_TMA_STORE=false for memcheck and initcheck (memcheck reports
# "Unknown Error" from generated GEMMs whose 4 or more stages fill shared
# memory, while the same kernels capped at 3 stages run clean; and, at 3
# stages, at the generated weight gradients' mbarrier waits
# (SYNCS.PHASECHK.TRANS64.TRYWAIT) in 3 of 4 memcheck processes of
# qwen3-30b-a3b sharing the GPU, never in the same runs alone: hence one
# run at a time by default; initcheck
# does not see TMA bulk stores, so it reports every read of a TMA-stored
# tile; stored by threads the tiles are tracked), plus MOE_DENSE_MATMULS=false
# for initcheck (cuBLASLt stores by TMA too: without it every read of the
# router matmuls' outputs is reported, first in the split_bf16 kernel that
# adds their parts: bench/results/2026-11-30-h200-fp8-dsv3 run1), and the same at
# MOE_GEMM_MAX_STAGES=2 with MOE_GEMM_RACECHECK_LAYOUT=true for racecheck
# (its launch failures follow the kernel's shared memory; the layout keeps
# threads' stores out of the addresses racecheck confuses with the
# kernels' mbarriers, which drew reports from every K-major weight
# gradient: bench/results/2026-11-30-h200x2-racecheck-clean run1-run3).
# racecheck runs unfiltered: with a kernel filter
# (--kernel-name kns=__moe_entry_, or --kernel-name-exclude kns=nvjet)
# every racecheck run of an example ended in "Internal Sanitizer Error" at
# its first kernel, without one the same runs complete
# (bench/results/2026-11-29-h200-fp8-examples run1, run2);
# SANITIZE_RACECHECK_EXCLUDE (kernel-name substrings, default none) adds
# exclusions anyway. A racecheck run whose reports never name one of the
# compiler's kernels (__moe_entry_*) -- hazards inside cuBLASLt's nvjet
# kernels, the router's dense matmuls, NVIDIA's code -- is listed as
# LIBRARY-ONLY with the kernels it names, and does not fail the run. On
# dsv3-1gpu racecheck fails inside cuBLASLt's split-K kernel before the
# compiler's kernels run; a racecheck root built with MOE_DENSE_MATMULS=false
# (moe-compile --dense-matmuls=false: the router's matmuls as the compiler's
# own kernels) has no cuBLASLt kernel left in the examples. Built so, its
# racecheck still ended in "unspecified launch failure" before the forward's
# first kernel (two runs); with CUDA_LAUNCH_BLOCKING=1 the forward ran
# through and the backward once failed at a launch, once ran 126 s without a
# report: racecheck runs launch blocking (SANITIZE_RACECHECK_BLOCKING=0:
# not). So it finishes in ~480 s on one H200 (the 2026-11-30 folder, run2);
# with TMA stores (MOE_GEMM_TMA_STORE=true) a generated GEMM of its forward
# (__moe_entry_1_13) still fails to launch under racecheck (run1).
# synccheck checks the compiler's kernels (__moe_entry_*), and
# launches no generated GEMM at any stage count, with or without
# setmaxnreg and with its Hopper checks off
# (bench/results/2026-11-29-h200-sanitize-wgrad-tail), so it skips the
# kernels SANITIZE_SYNCCHECK_EXCLUDE names (substrings, default
# "_grouped_matmul _grouped_weight_grad"; empty: none) and checks the rest.
#
# Every run: compute-sanitizer --tool T --error-exitcode 86 moe-runner ...
# --device gpu --iters 1 --warmup 0 (initcheck adds --uninitialized-outputs:
# the runner does not zero the outputs first, so an output byte the entry
# never writes is reported as well as an uninitialized read inside it),
# under a timeout (SANITIZE_TIMEOUT_S,
# default 300; dsv3-1gpu's SANITIZE_LARGE_TIMEOUT_S, default 270: making its
# 22 GB of random weights on the host alone takes ~90 s; its racecheck run
# SANITIZE_LARGE_RACECHECK_TIMEOUT_S, default 480: 190 s did not reach the
# end of its backward on one H200), its log in
# OUTDIR/<artifact>.<tool>.log. SANITIZE_JOBS runs at a time (default 1,
# see above; memcheck and initcheck of every artifact then take ~6 minutes
# on one H200, racecheck and synccheck ~5 more); dsv3-1gpu's runs go one
# after the other, started first (each holds ~45 GB of device memory).
# The environment passes through: MOERT_GPU_STREAMS=1 puts the cuBLASLt
# grouped GEMMs on the runtime stream instead of auxiliary streams.
# The verdict is scripts/sanitize-summary.sh's (its header lists the results).
# Exit status: 0 when every selected run finished with 0 errors; 1 on any
# finding, timeout, failed run or missing artifact.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/gpu-sanitize-out}}
BUILD=${BUILD_GPU:-$ROOT/build-gpu}
ART=${MOE_ARTIFACTS_ROOT:-$ROOT/build/artifacts}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
TOOLS=${SANITIZE_TOOLS:-memcheck initcheck racecheck synccheck}
ARTIFACTS=${SANITIZE_ARTIFACTS:-small seed-test qwen3-30b-a3b fused-adjoint-layer mixtral-8x7b dsv3-1gpu gemm fp8wgrad nan adversarial cublaslt}
SHARED_ARTIFACTS=${SANITIZE_SHARED_ARTIFACTS:-gemm fp8wgrad}
SHARED_ROOT=${SANITIZE_SHARED_ROOT:-$ART}
SYNCCHECK_EXCLUDE=${SANITIZE_SYNCCHECK_EXCLUDE-_grouped_matmul _grouped_weight_grad}
RACECHECK_EXCLUDE=${SANITIZE_RACECHECK_EXCLUDE:-}
RACECHECK_BLOCKING=${SANITIZE_RACECHECK_BLOCKING:-1}
JOBS=${SANITIZE_JOBS:-1}
TIMEOUT_S=${SANITIZE_TIMEOUT_S:-300}
LARGE_TIMEOUT_S=${SANITIZE_LARGE_TIMEOUT_S:-270}
LARGE_RACECHECK_TIMEOUT_S=${SANITIZE_LARGE_RACECHECK_TIMEOUT_S:-480}
FINDING_RC=86
mkdir -p "$OUTDIR"
export PATH="$CUDA_HOME/bin:$PATH"

SANITIZER=$CUDA_HOME/bin/compute-sanitizer
[ -x "$SANITIZER" ] || SANITIZER=$CUDA_HOME/compute-sanitizer/compute-sanitizer
if ! [ -x "$SANITIZER" ]; then
  echo "FAIL: no compute-sanitizer under $CUDA_HOME (bin/ or compute-sanitizer/)"; exit 1
fi

source "$ROOT/scripts/gpu-runner-build.sh"
moe_build_gpu_runner "$ROOT" "$BUILD" "$CUDA_HOME" "$OUTDIR/build.log"
echo "sanitizer: $SANITIZER ($("$SANITIZER" --version 2>/dev/null | grep -i version | head -1))"

# The moe-runner arguments of artifact $1 under root $2 (default ART) (after
# the runner), or nothing when the artifact is not there.
runner_args() {
  local ART=${2:-$ART}
  case $1 in
    small|seed-test|qwen3-30b-a3b|fused-adjoint-layer)
      if [ -f "$ART/check/gpu/$1.so" ]; then echo "$ART/check/gpu/$1"; fi ;;
    mixtral-8x7b|dsv3-1gpu)
      if [ -f "$ART/check/gpu/$1.so" ]; then echo "$ART/check/gpu/$1 --entry moe_layer_bwd"; fi ;;
    gemm|nan|adversarial)
      if [ -f "$ART/$1/gpu.so" ]; then echo "$ART/$1/gpu --inputs $ART/$1/in"; fi ;;
    fp8wgrad)
      if [ -f "$ART/$1/kmajor-gpu.so" ]; then echo "$ART/$1/kmajor-gpu --inputs $ART/$1/kmajor-in"; fi ;;
    cublaslt)
      if [ -f "$ART/$1/gpu.so" ]; then echo "$ART/$1/gpu --check-against $ART/$1/cpu"; fi ;;
  esac
}

uses_shared_memory() { [[ " $SHARED_ARTIFACTS " == *" $1 "* ]]; }
shared_tool() { [ "$1" = racecheck ] || [ "$1" = synccheck ]; }
# The runner arguments of artifact $1 for tool $2.
artifact_args() {
  if shared_tool "$2"; then runner_args "$1" "$SHARED_ROOT"; else runner_args "$1"; fi
}

# One sanitizer run: writes OUTDIR/<artifact>.<tool>.{log,rc}.
sanitize_one() {
  local name=$1 tool=$2 limit=$3 args
  args=$(artifact_args "$name" "$tool")
  local log=$OUTDIR/$name.$tool.log
  rm -f "$OUTDIR/$name.$tool.rc"
  # initcheck: outputs not zeroed first, so an output byte the entry never
  # writes is reported too (when the outputs are copied back).
  local outputs=""
  [ "$tool" = initcheck ] && outputs=--uninitialized-outputs
  # racecheck: all but cuBLASLt's kernels, launched blocking unless
  # SANITIZE_RACECHECK_BLOCKING=0 (why: the header); synccheck: the
  # compiler's kernels but the excluded.
  local filters=() blocking=() part
  if [ "$tool" = racecheck ]; then
    for part in $RACECHECK_EXCLUDE; do filters+=(--kernel-name-exclude "kns=$part"); done
    [ "$RACECHECK_BLOCKING" = 1 ] && blocking=(env CUDA_LAUNCH_BLOCKING=1)
  elif [ "$tool" = synccheck ]; then
    filters=(--kernel-name kns=__moe_entry_)
    for part in $SYNCCHECK_EXCLUDE; do filters+=(--kernel-name-exclude "kns=$part"); done
  fi
  # shellcheck disable=SC2086 # args and outputs are word lists built above
  timeout --kill-after=30 "$limit" ${blocking[@]+"${blocking[@]}"} "$SANITIZER" --tool "$tool" \
    --error-exitcode "$FINDING_RC" --print-limit 50 ${filters[@]+"${filters[@]}"} \
    "$RUNNER" $args --device gpu --iters 1 --warmup 0 $outputs >"$log" 2>&1
  echo $? >"$OUTDIR/$name.$tool.rc"
}

# Says so when artifact $1 calls cuBLASLt (its library symbols are in the
# .so): initcheck does not see cuBLASLt's TMA stores and reports every read
# of their outputs, which hides anything real among them
# (bench/results/2026-11-30-h200-fp8-dsv3 run1). Sanitizer builds avoid
# them with MOE_GEMM=generated MOE_DENSE_MATMULS=false.
warn_cublaslt_initcheck() {
  local stem calls
  stem=$(artifact_args "$1" initcheck | cut -d' ' -f1)
  calls=$(grep -ao 'moert_entry_\(matmul\|grouped_gemm\|grouped_weight_grad\)[a-z0-9_]*' \
            "$stem.so" 2>/dev/null | sort -u | tr '\n' ' ')
  [ -z "$calls" ] ||
    echo "WARNING: $1 calls cuBLASLt (${calls% }): its initcheck will report reads of" \
         "cuBLASLt's TMA-stored outputs; build with MOE_GEMM=generated MOE_DENSE_MATMULS=false"
}

# The runs, as job groups: the runs of one group go one after the other;
# racecheck and synccheck runs (`serial`) after every group, one at a time.
groups=()
serial=()
serial_late=()
missing=()
for name in $ARTIFACTS; do
  case $name in
    small|seed-test|qwen3-30b-a3b|fused-adjoint-layer|mixtral-8x7b|dsv3-1gpu|gemm|fp8wgrad|nan|adversarial|cublaslt) ;;
    *) echo "FAIL: unknown artifact '$name' in SANITIZE_ARTIFACTS"; exit 1 ;;
  esac
  runs=()
  for tool in $TOOLS; do
    case $tool in
      memcheck|initcheck) ;;
      racecheck|synccheck) uses_shared_memory "$name" || continue ;;
      *) echo "FAIL: unknown tool '$tool' in SANITIZE_TOOLS"; exit 1 ;;
    esac
    if [ -z "$(artifact_args "$name" "$tool")" ]; then
      missing+=("$name:$tool")
    elif [ "$tool" = initcheck ] && [ "$name" != cublaslt ]; then
      warn_cublaslt_initcheck "$name"
      runs+=("$name:$tool")
    elif shared_tool "$tool"; then
      # The two largest layers last: a timeout then cuts the fewest runs.
      case $name in
        mixtral-8x7b|dsv3-1gpu) serial_late+=("$name:$tool") ;;
        *) serial+=("$name:$tool") ;;
      esac
    else
      runs+=("$name:$tool")
    fi
  done
  [ ${#runs[@]} -gt 0 ] || continue
  if [ "$name" = dsv3-1gpu ]; then
    groups=("${runs[*]}" ${groups[@]+"${groups[@]}"})
  else
    groups+=("${runs[@]}")
  fi
done

# Runs the space-separated runs of a group one after the other.
run_group() {
  local run name tool limit t0
  for run in $1; do
    name=${run%%:*} tool=${run#*:}
    limit=$TIMEOUT_S
    if [ "$name" = dsv3-1gpu ]; then
      limit=$LARGE_TIMEOUT_S
      [ "$tool" = racecheck ] && limit=$LARGE_RACECHECK_TIMEOUT_S
    fi
    t0=$SECONDS
    sanitize_one "$name" "$tool" "$limit"
    echo "  $name $tool: rc=$(cat "$OUTDIR/$name.$tool.rc") ($((SECONDS - t0)) s)"
  done
}

echo "=== compute-sanitizer runs ($JOBS at a time) $(date +%T)"
start=$SECONDS
running=0
for group in ${groups[@]+"${groups[@]}"}; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_group "$group" &
  running=$((running + 1))
done
wait
serial+=(${serial_late[@]+"${serial_late[@]}"})
if [ ${#serial[@]} -gt 0 ]; then
  echo "=== racecheck/synccheck runs, one at a time ($SHARED_ROOT) $(date +%T)"
  run_group "${serial[*]}"
  groups+=("${serial[*]}")
fi

runs=()
for group in ${groups[@]+"${groups[@]}"}; do
  for run in $group; do runs+=("$run"); done
done
for run in ${missing[@]+"${missing[@]}"}; do runs+=("$run:missing"); done
"$ROOT/scripts/sanitize-summary.sh" "$OUTDIR" "$((SECONDS - start))" ${runs[@]+"${runs[@]}"}
status=$?
echo "=== done $(date +%T): $([ $status = 0 ] && echo "SANITIZERS CLEAN" || echo "SANITIZER FINDINGS OR FAILED RUNS")"
exit $status
