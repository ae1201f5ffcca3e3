#!/usr/bin/env bash
# Device call 3 (one H200): after merging the cheaper zeroing (main e764b24;
# its kernels are .art/n-zero's, built from the same code on the branch):
# (1) the SASS at the offsets racecheck reported in run1 (the persistent
#     ragged case at 2 stages, __moe_entry_7_6): cuobjdump -sass of the cubin
#     that scripts/artifact-cubins.py cut out (.art/n-zero/cubins);
# (2) memcheck on the new kernels (test/gpu's FP8 weight-gradient cases);
# (3) mixtral-8x7b bf16 (.art/n-main/bq, unchanged code) and FP8 blockwise
#     with weight inputs (.art/n-zero/fw) in one run, forward and backward
#     (moe-runner --profile, median of 20), and the weight quantization.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
echo "=== (1) sass $(date +%T)"
"$OBJ" -sass .art/n-zero/cubins/__moe_entry_7_6_grouped_weight_grad.cubin > "$OUT/sass-7_6.txt" 2>&1
echo "cuobjdump rc=$? $(wc -l < "$OUT/sass-7_6.txt") lines"
for pc in 1630 16a0 2810 30b0; do
  echo "--- /*$pc*/"; grep -n -B6 -A2 "/\*$pc\*/" "$OUT/sass-7_6.txt" | cut -c1-110
done
echo "=== (2) memcheck $(date +%T)"
timeout 100 "$SAN" --tool memcheck --error-exitcode 86 "$RUNNER" .art/n-zero/kw/gpu --device gpu \
  --inputs .art/n-main/kw/in --iters 1 --warmup 0 > "$OUT/memcheck-kw-zero.log" 2>&1
echo "memcheck kw rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck-kw-zero.log")"
echo "=== (3) mixtral $(date +%T)"
prof() { # label artifact entries...
  local label=$1 art=$2; shift 2
  local entries=(); for e in "$@"; do entries+=(--entry "$e"); done
  timeout 120 "$RUNNER" "$art" --device gpu "${entries[@]}" --iters 20 --warmup 3 --profile > "$OUT/profile-$label.txt" 2>&1
  echo "--- $label rc=$?"; grep -E "^entry .* median|weight_grad  |grouped_matmul  " "$OUT/profile-$label.txt" | head -24
}
prof mixtral-bf16 .art/n-main/bq/gpu/mixtral-8x7b moe_layer_fwd moe_layer_bwd
prof mixtral-fp8w .art/n-zero/fw/gpu/mixtral-8x7b moe_layer_fwd moe_layer_bwd moe_layer_quantize_weights
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
