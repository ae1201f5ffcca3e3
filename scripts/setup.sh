#!/usr/bin/env bash
# Command (a): install what is missing, build, and run the main job on the
# examples: moe-opt's default pipeline (verify, expand every moe.layer into
# its op graph, canonicalize, cse). Prints the small example's result and a
# line per benchmark-shape example. Safe to run again.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

moe_install_deps
moe_build moe-opt

PIPELINE="builtin.module(func.func(moe-expand-layer,canonicalize,cse))"
MOE_OPT="$MOE_BUILD/bin/moe-opt"
log "moe-opt --pass-pipeline='$PIPELINE' examples/small.mlir"
"$MOE_OPT" --pass-pipeline="$PIPELINE" "$MOE_ROOT/examples/small.mlir"
for example in "$MOE_ROOT"/examples/*.mlir; do
  ops=$("$MOE_OPT" --pass-pipeline="$PIPELINE" "$example" | grep -c ' = moe\.')
  log "$(basename "$example"): verified, moe.layer expanded into $ops moe ops"
done
