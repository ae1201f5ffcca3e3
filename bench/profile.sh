#!/usr/bin/env bash
# Where the GPU time of a compiled layer goes (GPU machine, no MLIR needed):
# moe-runner --profile on the full-shape artifacts, forward and backward
# entries, one table per entry (kernels named <function>_<n>_<op>, runtime
# calls with their shapes, memcpy/memset), with random seeded inputs.
#
#   bench/profile.sh [OUTDIR]     (default: $OUT if set, else ./bench-profile-out)
#
# Environment (defaults): MOE_RUNNER (build-gpu/bin/moe-runner, else
# build/bin/moe-runner), MOE_ARTIFACTS (build/artifacts/gpu),
# PROFILE_SHAPES ("seed-test qwen3-30b-a3b mixtral-8x7b"),
# PROFILE_ENTRIES ("moe_layer_fwd moe_layer_bwd"), PROFILE_ITERS (5),
# RUNNER_TIMEOUT_S (300). Writes OUTDIR/profile-<shape>.txt and prints them,
# then OUTDIR/share.md: each entry's kernel time split into expert GEMMs,
# the router's dense GEMMs and the rest (bench/profile_share.py; DESIGN.md's
# target: the rest at most 15 %).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUTDIR=${1:-${OUT:-$ROOT/bench-profile-out}}
if [ -z "${MOE_RUNNER:-}" ]; then
  MOE_RUNNER=$ROOT/build-gpu/bin/moe-runner
  [ -x "$MOE_RUNNER" ] || MOE_RUNNER=$ROOT/build/bin/moe-runner
fi
ART=${MOE_ARTIFACTS:-$ROOT/build/artifacts/gpu}
mkdir -p "$OUTDIR"
status=0
profiles=()
for s in ${PROFILE_SHAPES:-seed-test qwen3-30b-a3b mixtral-8x7b}; do
  entries=()
  for e in ${PROFILE_ENTRIES:-moe_layer_fwd moe_layer_bwd}; do entries+=(--entry "$e"); done
  echo "=== $s ($(date +%T))"
  timeout "${RUNNER_TIMEOUT_S:-300}" "$MOE_RUNNER" "$ART/$s" --device gpu --profile \
    --warmup 1 --iters "${PROFILE_ITERS:-5}" "${entries[@]}" >"$OUTDIR/profile-$s.txt" 2>&1
  rc=$?
  # The profile tables, not the output rows.
  sed -n '/^entry /p; /kernel profile/,/(sum)/p' "$OUTDIR/profile-$s.txt"
  [ $rc = 0 ] || { echo "$s: moe-runner exited $rc"; tail -5 "$OUTDIR/profile-$s.txt"; status=1; }
  profiles+=("$OUTDIR/profile-$s.txt")
done
echo "=== GEMM and non-GEMM shares"
python3 "$ROOT/bench/profile_share.py" --markdown "${profiles[@]}" | tee "$OUTDIR/share.md" || status=1
exit $status
