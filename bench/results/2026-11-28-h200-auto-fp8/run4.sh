#!/usr/bin/env bash
# Device call 4 (one H200, short): two lane shapes of the transposed 1x128
# quantize. A: a lane loads 4 bytes of 32 rows (warp load = 4 rows x 32 B);
# B: 16 bytes of 16 rows (warp load = 8 rows x 64 B). B's byte identity on
# the GPU; both on the bandwidth bench and in the qwen3 FP8 layer.
set -u
cd "$(dirname "$0")/.."
export BUILD_GPU=/tmp/rb
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda $OUT/build.log
export RUNNER
A=.art
cp -r $A/qa/in $A/qb/in
for v in a b; do
  echo "=== variant $v $(date +%T)"
  if [ $v = b ]; then scripts/gpu-fp8-quantize.sh run $A/q$v > $OUT/quantize-$v.log 2>&1; echo "quantize $v rc=$?"
    grep -E "large|every|FAIL|GB/s" $OUT/quantize-$v.log
  else
    timeout 60 $RUNNER $A/qa/bench/quantize-bench --device gpu --warmup 3 --iters 20 > $OUT/bench-a.log 2>&1
    python3 bench/fp8-quantize-bandwidth.py bench/fp8-quantize.mlir $OUT/bench-a.log
  fi
  timeout 40 $RUNNER $A/f$v/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --iters 10 --warmup 2 2>&1 | grep -E "^entry|error" | sed "s/^/$v /" | tee -a $OUT/layers.log
done
rm -f $OUT/build.log
echo "=== end $(date +%T)"
