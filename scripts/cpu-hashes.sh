#!/usr/bin/env bash
# Prints the output hashes (fnv1a64) of every example's check-size CPU
# artifact, forward and backward, seed 1: a refactoring that must not change
# behaviour gives the same lines before and after.
#
#   scripts/cpu-hashes.sh [BUILD_DIR]     (EXAMPLES="a b" restricts the examples)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
EXAMPLES=${EXAMPLES:-small seed-test mixtral-8x7b qwen3-30b-a3b dsv3-1gpu}
CHECK_CPU_ONLY=1 EXAMPLES="$EXAMPLES" "$ROOT/scripts/gpu-artifacts.sh" "$BUILD" "$WORK" >/dev/null
for name in $EXAMPLES; do
  "$BUILD/bin/moe-runner" "$WORK/check/cpu/$name" --device cpu --seed 1 --warmup 0 --iters 1 --no-progress \
    | awk -v ex="$name" '/^entry /{entry=$2} length($NF) == 16 && $NF ~ /^[0-9a-f]+$/ {print ex, entry, $1, $NF}'
done
