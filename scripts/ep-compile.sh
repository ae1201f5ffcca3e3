# Sourced by the expert-parallel scripts (gpu-ep-host.sh, gpu-ep-nccl.sh):
# compiles a layer with its single backward (moe-generate-vjp), on one rank
# or partitioned by moe-expert-parallel. Needs build/bin.
#
#   moe_compile_layer BIN SRC LAYOUT STEM TARGET [MOE-COMPILE ARGS...]
#
# LAYOUT 1 compiles SRC as it is (the one-rank layer); P > 1 its per-rank
# SPMD function over P ranks; GRID@OPTIONS (e.g. 2x2@axis=1+data-axes=0,
# '+' for a space) over a shard.grid of that shape (grid-shape), with those
# moe-expert-parallel options (data x expert parallelism).
# MOE_EP_FP8_PLACEMENT="OPTIONS" places FP8 after the VJP
# (--moe-fp8-placement="OPTIONS"). Writes STEM.mlir (the differentiated IR)
# and the artifact STEM.so + STEM.json for TARGET (cpu, sm_90a, ...).
moe_compile_layer() {
  local bin=$1 src=$2 layout=$3 stem=$4 target=$5
  shift 5
  local partition=() placement=() shape
  if [[ "$layout" == *@* ]]; then
    shape=${layout%@*}
    partition=(--moe-expert-parallel="grid-shape=${shape//x/,} ${layout#*@}")
    partition[0]=${partition[0]//+/ }
  elif [ "$layout" -gt 1 ]; then
    partition=(--moe-expert-parallel=ranks="$layout")
  fi
  [ -n "${MOE_EP_FP8_PLACEMENT:-}" ] && placement=(--moe-fp8-placement="$MOE_EP_FP8_PLACEMENT")
  "$bin/moe-opt" "$src" "${partition[@]}" --moe-generate-vjp "${placement[@]}" -o "$stem.mlir" &&
    "$bin/moe-compile" --quiet --target="$target" "$@" "$stem.mlir" -o "$stem"
}

# The ranks of LAYOUT: P, or the product of GRID's sizes.
moe_layout_ranks() {
  local shape=${1%@*} n=1 d
  for d in ${shape//x/ }; do n=$((n * d)); done
  echo "$n"
}
