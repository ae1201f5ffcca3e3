#!/usr/bin/env bash
# On a machine with 2 (or 4) GPUs (no MLIR needed): our expert-parallel
# ragged exchange (moert_gpu_all_to_all, bench/ep_exchange_bench.cpp) against
# torch.distributed's all_to_all_single on NCCL (bench/ep_exchange_torch.py)
# at equal bytes per rank (issue 16, item 4).
#
# Builds libmoe_runtime_gpu (with NCCL) and moe-ep-exchange-bench standalone
# from runtime/, then for P = 2 (and 4 when there are 4 GPUs), 469762048
# bytes per rank (DeepSeek-V3's dispatch: 4096 tokens * top-8 * 7168 * 2 B)
# and 134217728 (Mixtral-like), routing balanced and skewed, runs ours and
# torch's, and prints a markdown table of the busbw (nccl-tests' alltoall
# definition: algbw = bytes sent by a rank / time, busbw = algbw * (P-1)/P),
# ours / torch, also written to OUTDIR/ep-exchange.md.
#
#   bench/ep-exchange.sh [OUTDIR]     (default: $OUT, else ./ep-exchange-out)
#
# Environment: NCCL_ROOT=DIR (headers + library of one NCCL install for ours;
# default: moe_default_nccl_root in scripts/gpu-runner-build.sh, PyTorch's
# wheel where it has nccl_device.h; NCCL_ROOT=torch insists on it), EP_RANKS ("2 4" as the GPUs allow), EP_SIZES, EP_ROUTINGS,
# EP_ITERS (20), EP_WARMUP (5), EP_ROW_BYTES (14336), EP_TIMEOUT_S (240 per
# run), EP_EXCHANGES ("device host-counts": ours under each MOE_EP_EXCHANGE),
# SKIP_TORCH, PYTHON (python3), BUILD_GPU (./build-gpu).
# NCCL_NVLS_ENABLE=0 is exported (NVLink SHARP off for both).
#
# Exit status: 0 when every run succeeded and passed its check.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/ep-exchange-out}}
BUILD=${BUILD_GPU:-$ROOT/build-gpu}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PYTHON=${PYTHON:-python3}
ITERS=${EP_ITERS:-20}
WARMUP=${EP_WARMUP:-5}
ROW_BYTES=${EP_ROW_BYTES:-14336}
RUN_TIMEOUT=${EP_TIMEOUT_S:-240}
SIZES=${EP_SIZES:-469762048 134217728}
ROUTINGS=${EP_ROUTINGS:-balanced skewed}
EXCHANGES=${EP_EXCHANGES:-device host-counts}
mkdir -p "$OUTDIR"
export PATH="$CUDA_HOME/bin:$PATH"
export NCCL_NVLS_ENABLE=0
export MOE_COMM_TIMEOUT_S=${MOE_COMM_TIMEOUT_S:-120}

# shellcheck source=scripts/gpu-runner-build.sh
. "$ROOT/scripts/gpu-runner-build.sh"
moe_default_nccl_root

echo "=== build runtime + moe-ep-exchange-bench ($BUILD) $(date +%T)"
if ! { cmake -G Ninja -S "$ROOT/runtime" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
         -DCUDAToolkit_ROOT="$CUDA_HOME" -DMOE_GPU_BUILD_BENCH=OFF \
         ${NCCL_ROOT:+-DNCCL_ROOT="$NCCL_ROOT"} &&
       cmake --build "$BUILD" --target moe_runtime_gpu moe-ep-exchange-bench; } \
       >"$OUTDIR/build.log" 2>&1; then
  tail -30 "$OUTDIR/build.log"; echo "FAIL: build"; exit 1
fi
if grep -q "NCCL not found" "$OUTDIR/build.log"; then
  echo "FAIL: libmoe_runtime_gpu was built without NCCL (set NCCL_ROOT)"; exit 1
fi
OURS_NCCL=$(grep -E "moe_runtime_gpu: NCCL " "$OUTDIR/build.log" | head -1 | sed 's/^-- //')
echo "ours built against: $OURS_NCCL"
BENCH=$BUILD/bin/moe-ep-exchange-bench
[ -x "$BENCH" ] || { echo "FAIL: no $BENCH"; exit 1; }

TORCH_NCCL="(not run)"
if [ -z "${SKIP_TORCH:-}" ]; then
  if TORCH_NCCL=$("$PYTHON" -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())' 2>"$OUTDIR/torch-version.log"); then
    echo "torch uses: $TORCH_NCCL"
  else
    cat "$OUTDIR/torch-version.log"; echo "FAIL: no working torch in $PYTHON (SKIP_TORCH=1 runs ours only)"
    TORCH_NCCL="(no torch)"; SKIP_TORCH=1; failed_torch=1
  fi
fi

GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -n "${EP_RANKS:-}" ]; then
  RANKS=$EP_RANKS
else
  RANKS=""
  [ "$GPUS" -ge 2 ] && RANKS="2"
  [ "$GPUS" -ge 4 ] && RANKS="$RANKS 4"
fi
echo "GPUs: $GPUS  P: ${RANKS:-none}  sizes: $SIZES  routings: $ROUTINGS  iters: $ITERS warmup: $WARMUP  row bytes: $ROW_BYTES"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>/dev/null | head -8
[ -n "$RANKS" ] || { echo "FAIL: needs at least 2 GPUs (found $GPUS)"; exit 1; }

status=${failed_torch:-0}
# key=value from a summary line.
val() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }
TABLE="$OUTDIR/ep-exchange.md"
{
  echo "# EP exchange: moert_gpu_all_to_all vs torch all_to_all_single ($(date -u +%F))"
  echo
  echo "- ours: $OURS_NCCL"
  echo "- torch: $TORCH_NCCL"
  echo "- GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) x $GPUS; NCCL_NVLS_ENABLE=0; rows of $ROW_BYTES B; median of $ITERS (warmup $WARMUP), each sample the slowest rank's"
  echo "- busbw (nccl-tests alltoall) = bytes sent by a rank / time * (P-1)/P, GB/s = 1e9 B/s; ratio = ours / torch (> 1: ours faster)"
  echo "- ours' times include its count exchange: device = the counts kernel and its barrier through the symmetric window (no host wait); host-counts = ncclAllGather + device-to-host copy + host wait. Torch's only all_to_all_single (split sizes precomputed on the host)"
  echo
  echo "| P | routing | bytes/rank | ours' exchange | ours dispatch ms | torch dispatch ms | ours dispatch busbw | torch dispatch busbw | dispatch ratio | ours combine ms | torch combine ms | ours combine busbw | torch combine busbw | combine ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$TABLE"

for p in $RANKS; do
  for bytes in $SIZES; do
    for routing in $ROUTINGS; do
      tag="P$p-$routing-$bytes"
      declare -A OURS=()
      for ex in $EXCHANGES; do
        echo "=== $tag: ours ($ex) $(date +%T)"
        OURS[$ex]=""
        if MOE_EP_EXCHANGE=$ex timeout "$RUN_TIMEOUT" "$BENCH" "$p" --bytes-per-rank "$bytes" \
             --routing "$routing" --iters "$ITERS" --warmup "$WARMUP" --row-bytes "$ROW_BYTES" \
             >"$OUTDIR/ours-$ex-$tag.log" 2>&1 && ! grep -q FAIL "$OUTDIR/ours-$ex-$tag.log" &&
           grep -q "^ep-exchange .* exchange=$ex " "$OUTDIR/ours-$ex-$tag.log"; then
          OURS[$ex]=$(grep '^ep-exchange ' "$OUTDIR/ours-$ex-$tag.log" | tail -1)
          echo "${OURS[$ex]}"
        else
          tail -20 "$OUTDIR/ours-$ex-$tag.log"; echo "ours ($ex) $tag: FAIL"; status=1
        fi
      done
      first=${EXCHANGES%% *}
      ours=${OURS[$first]}
      theirs=""
      if [ -z "${SKIP_TORCH:-}" ]; then
        echo "=== $tag: torch $(date +%T)"
        if timeout "$RUN_TIMEOUT" "$PYTHON" -m torch.distributed.run --standalone --nproc_per_node "$p" \
             "$ROOT/bench/ep_exchange_torch.py" --bytes-per-rank "$bytes" --routing "$routing" \
             --iters "$ITERS" --warmup "$WARMUP" --row-bytes "$ROW_BYTES" >"$OUTDIR/torch-$tag.log" 2>&1 &&
           ! grep -q FAIL "$OUTDIR/torch-$tag.log"; then
          theirs=$(grep '^torch-exchange ' "$OUTDIR/torch-$tag.log" | tail -1)
          echo "$theirs"
          # Same splits on both sides (epSplit / ep_split).
          ours_splits=$(grep -o '^rank [0-9]* send_rows=[0-9,]*' "$OUTDIR/ours-$first-$tag.log")
          torch_splits=$(grep -o '^rank [0-9]* send_rows=[0-9,]*' "$OUTDIR/torch-$tag.log")
          if [ -n "$ours" ] && { [ "$(printf '%s\n' "$ours_splits" | grep -c send_rows)" -ne "$p" ] ||
                                 [ "$ours_splits" != "$torch_splits" ]; }; then
            echo "FAIL $tag: ours and torch did not report the same $p ranks' splits"; status=1
          fi
        else
          tail -20 "$OUTDIR/torch-$tag.log"; echo "torch $tag: FAIL"; status=1
        fi
      fi
      for ex in $EXCHANGES; do
        ours=${OURS[$ex]}
        od=$(val "$ours" dispatch_busbw_GBps); td=$(val "$theirs" dispatch_busbw_GBps)
        oc=$(val "$ours" combine_busbw_GBps); tc=$(val "$theirs" combine_busbw_GBps)
        ob=$(val "$ours" bytes_per_rank); tb=$(val "$theirs" bytes_per_rank)
        missing=FAIL; [ -n "${SKIP_TORCH:-}" ] && missing=-
        echo "| $p | $routing | ${ob:-${tb:-$bytes}} | $ex | $(val "$ours" dispatch_ms) | $(val "$theirs" dispatch_ms) | ${od:-FAIL} | ${td:-$missing} | $(ratio "$od" "$td") | $(val "$ours" combine_ms) | $(val "$theirs" combine_ms) | ${oc:-FAIL} | ${tc:-$missing} | $(ratio "$oc" "$tc") |" >>"$TABLE"
      done
      unset OURS
    done
  done
done

echo
cat "$TABLE"
[ $status -eq 0 ] && echo "ep-exchange: ALL RUNS PASSED" || echo "ep-exchange: FAILED (see $OUTDIR/*.log)"
exit $status
