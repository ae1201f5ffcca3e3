#!/usr/bin/env bash
# Command (b): install what is missing, build, and run every test: the lit
# suite (test/) and the embedding example (examples/embed) built against the
# installed package. Fails if any test fails or if none ran.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

moe_install_deps
moe_build

log "lit: $MOE_ROOT/test"
lit_log=$(mktemp)
trap 'rm -f "$lit_log"' EXIT
set +e
"$LLVM_BIN/lit" -sv "$MOE_BUILD/test" 2>&1 | tee "$lit_log"
lit_status=${PIPESTATUS[0]}
set -e
[ "$lit_status" -eq 0 ] || { log "lit: FAILED"; exit 1; }
grep -Eq 'Passed *: *[1-9]' "$lit_log" || { log "lit: no test ran"; exit 1; }

log "embedding: install the package and build examples/embed against it"
prefix="$MOE_BUILD/install"
rm -rf "$prefix" "$MOE_BUILD/embed"
cmake --install "$MOE_BUILD" --prefix "$prefix" >/dev/null
cmake -G Ninja -S "$MOE_ROOT/examples/embed" -B "$MOE_BUILD/embed" \
  -DMoeDialect_DIR="$prefix/lib/cmake/MoeDialect" \
  -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld >/dev/null
ninja -C "$MOE_BUILD/embed"
"$MOE_BUILD/embed/acme-opt" --moe-expand-layer "$MOE_ROOT/examples/small.mlir" \
  | "$LLVM_BIN/FileCheck" "$MOE_ROOT/examples/embed/expand.mlir"
log "embedding: acme-opt ran moe-expand-layer: PASSED"
plugin="$prefix/lib/MoePlugin.so"
"$LLVM_BIN/mlir-opt" --load-dialect-plugin="$plugin" --load-pass-plugin="$plugin" \
  --pass-pipeline='builtin.module(moe-expand-layer)' "$MOE_ROOT/examples/small.mlir" \
  | "$LLVM_BIN/FileCheck" "$MOE_ROOT/examples/embed/expand.mlir"
log "embedding: upstream mlir-opt with the installed MoePlugin.so ran moe-expand-layer: PASSED"
log "all tests passed"
