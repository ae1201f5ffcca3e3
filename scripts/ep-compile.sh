# Sourced by the expert-parallel scripts (gpu-ep-host.sh, gpu-ep-nccl.sh):
# compiles a layer with its single backward (moe-generate-vjp), on one rank
# or partitioned over P (moe-expert-parallel first). Needs build/bin.
#
#   moe_compile_layer BIN SRC P STEM TARGET [MOE-COMPILE ARGS...]
#
# P = 1 compiles SRC as it is (the one-rank layer); P > 1 its per-rank SPMD
# function. MOE_EP_FP8_PLACEMENT="OPTIONS" places FP8 after the VJP
# (--moe-fp8-placement="OPTIONS"). Writes STEM.mlir (the differentiated IR)
# and the artifact STEM.so + STEM.json for TARGET (cpu, sm_90a, ...).
moe_compile_layer() {
  local bin=$1 src=$2 p=$3 stem=$4 target=$5
  shift 5
  local partition=() placement=()
  [ "$p" -gt 1 ] && partition=(--moe-expert-parallel=ranks="$p")
  [ -n "${MOE_EP_FP8_PLACEMENT:-}" ] && placement=(--moe-fp8-placement="$MOE_EP_FP8_PLACEMENT")
  "$bin/moe-opt" "$src" "${partition[@]}" --moe-generate-vjp "${placement[@]}" -o "$stem.mlir" &&
    "$bin/moe-compile" --quiet --target="$target" "$@" "$stem.mlir" -o "$stem"
}
