#!/usr/bin/env bash
# Device call 3 (one H200).
# (a) memcheck's "Unknown Error" in the generated weight gradients (run2:
#     qwen3-30b-a3b 2_10 and mixtral-8x7b 2_11, four sanitizer processes at
#     a time; run1: mixtral clean beside two): alone, three times, then
#     four at once; and the SASS at the reported offsets (.art/sass: the
#     kernels' cubins from moe-compile --emit=mlir of the same sources).
# (b) scripts/gpu-sanitize.sh racecheck, unfiltered, on the 2-stage build.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
SAN=/usr/local/cuda/bin/compute-sanitizer
[ -x "$SAN" ] || SAN=/usr/local/cuda/compute-sanitizer/compute-sanitizer
echo "=== SASS at the reported offsets"
for c in qwen3_2_10:1800:3010 mixtral_2_11:1390; do
  IFS=: read -r name o1 o2 <<<"$c"
  /usr/local/cuda/bin/cuobjdump -sass .art/sass/$name.cubin > "$OUT/sass-$name.txt" 2>&1 || \
    /usr/local/cuda/bin/nvdisasm .art/sass/$name.cubin > "$OUT/sass-$name.txt" 2>&1
  for o in $o1 $o2; do
    [ -n "$o" ] || continue
    echo "--- $name +0x$o"; grep -n -B6 -A2 -iE "/\*0*$o\*/" "$OUT/sass-$name.txt" | head -12
  done
done
mc() { # name artifact
  timeout 120 "$SAN" --tool memcheck --error-exitcode 86 --print-limit 5 "$RUNNER" "$2" --entry moe_layer_bwd \
    --device gpu --iters 1 --warmup 0 > "$OUT/mc-$1.log" 2>&1
  echo "  $1: rc=$? $(grep -m1 -E 'ERROR SUMMARY' "$OUT/mc-$1.log") $(grep -m1 -A1 'Unknown Error' "$OUT/mc-$1.log" | tail -1)"
}
echo "=== (a) memcheck alone $(date +%T)"
for i in 1 2 3; do mc qwen3-alone-$i .art/gs4/check/gpu/qwen3-30b-a3b; done
mc mixtral-alone-1 .art/gs4/check/gpu/mixtral-8x7b
echo "=== (a) memcheck, four at once $(date +%T)"
for i in 1 2 3 4; do mc qwen3-four-$i .art/gs4/check/gpu/qwen3-30b-a3b & done; wait
echo "=== (b) racecheck, unfiltered, 2-stage build $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs5 SANITIZE_TOOLS=racecheck \
  SANITIZE_ARTIFACTS="small seed-test qwen3-30b-a3b gemm nan adversarial mixtral-8x7b dsv3-1gpu" \
  SANITIZE_SHARED_ARTIFACTS="small seed-test qwen3-30b-a3b gemm nan adversarial mixtral-8x7b dsv3-1gpu" \
  SANITIZE_TIMEOUT_S=150 SANITIZE_LARGE_TIMEOUT_S=200 \
  timeout 420 scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/racecheck-run3.log" 2>&1
echo "gpu-sanitize rc=$?"
sed -n '/=== summary/,$p' "$OUT/racecheck-run3.log"
grep -E "rc=" "$OUT/racecheck-run3.log" | head -20
tar czf "$OUT/logs-run3.tgz" -C "$OUT" sanitize $(cd "$OUT" && ls mc-*.log)
rm -rf "$OUT/build.log" "$OUT/sanitize" "$OUT"/mc-*.log
echo "=== end $(date +%T)"
