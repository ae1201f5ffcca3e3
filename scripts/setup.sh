#!/usr/bin/env bash
# Command (a): install what is missing, build, and run the main job: compile
# the small example layer into an artifact with moe-compile and run it with
# moe-runner (on the CPU: the reference lowering). Safe to run again.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

moe_install_deps
moe_build moe-opt moe-compile moe-runner

artifacts="$MOE_BUILD/artifacts"
mkdir -p "$artifacts"
log "moe-compile examples/small.mlir --target=cpu -o build/artifacts/small"
"$MOE_BUILD/bin/moe-compile" "$MOE_ROOT/examples/small.mlir" --target=cpu \
  -o "$artifacts/small"
log "moe-runner build/artifacts/small --seed 1 --dump build/artifacts/small-run"
"$MOE_BUILD/bin/moe-runner" "$artifacts/small" --seed 1 --iters 20 \
  --dump "$artifacts/small-run"
log "inputs and outputs written as .npy under build/artifacts/small-run/moe_layer/"
