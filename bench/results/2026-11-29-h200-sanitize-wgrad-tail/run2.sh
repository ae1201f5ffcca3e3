#!/usr/bin/env bash
# Device call 2 (one H200): why racecheck and synccheck cannot run the
# generated grouped GEMMs, and memcheck's "Unknown Error" in
# wgrad_nk_m_tail (run1). One GEMM case under each tool with the tool's
# Hopper-specific checks switched off one at a time; the SASS around the
# reported offset.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
CS=/usr/local/cuda/bin/compute-sanitizer
[ -x "$CS" ] || CS=/usr/local/cuda/compute-sanitizer/compute-sanitizer
one() { # label art entry tool flags...
  local label=$1 art=$2 entry=$3 tool=$4; shift 4
  timeout 90 "$CS" --tool "$tool" --error-exitcode 86 --print-limit 10 "$@" \
    "$RUNNER" .art/$art/gemm/gpu --inputs .art/$art/gemm/in --entry "$entry" \
    --device gpu --iters 1 --warmup 0 > "$OUT/$label.log" 2>&1
  local rc=$?
  printf '%-28s rc=%-3s %s | %s\n' "$label" "$rc" \
    "$(grep -oE '(ERROR|RACECHECK) SUMMARY: .*' "$OUT/$label.log" | tail -1)" \
    "$(grep -m1 -oE 'LAUNCH_FAILED|Unknown Error|Invalid [a-z_ ]+|Barrier error[^.]*|Race reported[^.]*' "$OUT/$label.log")"
}
echo "=== synccheck, gs5 balanced (2 stages) $(date +%T)"
one sync-default gs5 balanced synccheck
one sync-no-barrier-init gs5 balanced synccheck --missing-barrier-init-is-fatal no
one sync-no-wgmma gs5 balanced synccheck --check-warpgroup-mma no
one sync-no-bulk gs5 balanced synccheck --check-bulk-copy no
one sync-none gs5 balanced synccheck --missing-barrier-init-is-fatal no --check-warpgroup-mma no --check-bulk-copy no
echo "=== racecheck, gs5 balanced $(date +%T)"
one race-no-memcpy-async gs5 balanced racecheck --racecheck-memcpy-async no
one race-no-wgmma gs5 balanced racecheck --check-warpgroup-mma no
one race-no-bulk gs5 balanced racecheck --check-bulk-copy no
one race-none gs5 balanced racecheck --racecheck-memcpy-async no --check-warpgroup-mma no --check-bulk-copy no
echo "=== memcheck, gs4 wgrad_nk_m_tail $(date +%T)"
one mem-default gs4 wgrad_nk_m_tail memcheck
one mem-no-bulk gs4 wgrad_nk_m_tail memcheck --check-bulk-copy no
one mem-no-wgmma gs4 wgrad_nk_m_tail memcheck --check-warpgroup-mma no
one mem-wgrad_m_tail gs4 wgrad_m_tail memcheck
echo "=== SASS $(date +%T)"
DIS=/usr/local/cuda/bin/nvdisasm
for c in gs4-__moe_entry_11_0_grouped_weight_grad gs5-__moe_entry_0_0_grouped_matmul; do
  "$DIS" -c -hex .art/cubins/$c.cubin > "$OUT/$c.sass" 2>&1 || /usr/local/cuda/bin/cuobjdump -sass .art/cubins/$c.cubin > "$OUT/$c.sass" 2>&1
  wc -l "$OUT/$c.sass"
done
grep -n -B14 -A4 "/\*11b0\*/" "$OUT/gs4-__moe_entry_11_0_grouped_weight_grad.sass" | head -30
for f in "$OUT"/*.log; do echo "--- $(basename $f)"; grep -v "^moe_runtime_gpu\|Host Frame\|^=========     \.\.\." "$f" | head -14; done > "$OUT/excerpts.txt"
head -120 "$OUT/excerpts.txt"
echo "=== end $(date +%T)"
