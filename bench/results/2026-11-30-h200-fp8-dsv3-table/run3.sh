#!/usr/bin/env bash
# Device call 3 (one H200), this session's compiler (quantize by the scale's
# reciprocal and two FMA corrections; the transposed quantize of a
# dequantized FP8 residual as one kernel):
# (a) scripts/gpu-fp8-quantize.sh: the 13 quantize cases byte-identical to
#     the CPU, and the quantize bench (.art/qz4);
# (b) qwen3-30b-a3b's FP8 check layer (.art/f6) against the CPU, forward and
#     backward;
# (c) profile of qwen3-30b-a3b's FP8 backward (.art/f6);
# (d) bench/fp8-layer.sh, bf16 (.art/b17) against blockwise FP8 (.art/f6),
#     seed-test and qwen3-30b-a3b, balanced;
# (e) on the same routing inputs, the FP8 layers with bf16 weight gradients
#     (.art/f6w: moe-fp8-placement gemms=fc1,fc2,forward,dgrad), seed-test,
#     qwen3-30b-a3b, then mixtral-8x7b against bf16 in the same call.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) quantize cases $(date +%T)"
RUNNER=$RUNNER timeout 120 scripts/gpu-fp8-quantize.sh run .art/qz4 2>&1 | tail -24
echo "=== (b) qwen3 FP8 check $(date +%T)"
Q=.art/f6/check/gpu/qwen3-30b-a3b
timeout 150 "$RUNNER" $Q --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --check-against .art/f6/check/cpu/qwen3-30b-a3b --reuse-fp8-weights \
  $(python3 scripts/near-tie-args.py $Q.json) --warmup 0 --iters 1 > "$OUT/check-qwen3-fp8.log" 2>&1
echo "rc=$?"; grep -E "^check|FAIL|rel_l2|error" "$OUT/check-qwen3-fp8.log" | head -30
echo "=== (c) profile qwen3 FP8 backward $(date +%T)"
timeout 60 "$RUNNER" .art/f6/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd --iters 20 \
  --warmup 3 --profile > "$OUT/profile-qwen3-fp8.txt" 2>&1
echo "rc=$?"; grep -E "median|quantize|transpose|grouped|dequant|glu|\(sum\)" "$OUT/profile-qwen3-fp8.txt" | head -40
echo "=== (d) bench/fp8-layer.sh seed-test,qwen3 balanced $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=seed-test,qwen3-30b-a3b BENCH_ROUTINGS=balanced \
  timeout 200 bench/fp8-layer.sh .art/b17/gpu .art/f6/gpu /tmp/fl
echo "rc=$? $(date +%T)"
echo "=== (e) FP8 with bf16 weight gradients $(date +%T), $(left) s left"
IN=/tmp/fl/inputs
for s in seed-test qwen3-30b-a3b mixtral-8x7b; do
  if [ ! -d $IN/$s-balanced ]; then
    python3 bench/make_routing_inputs.py $s balanced --out $IN/$s-balanced \
      --json /tmp/fl/routing-$s-balanced.json --quiet > /tmp/fl/inputs-$s-balanced.log 2>&1
  fi
  kinds="fp8w"
  [ $s = mixtral-8x7b ] && kinds="bf16 fp8w"
  for kind in $kinds; do
    art=.art/f6w/gpu; [ $kind = bf16 ] && art=.art/b17/gpu
    [ "$(left)" -gt 70 ] || { echo "skip $kind $s: $(left) s left"; continue; }
    timeout $(( $(left) - 15 )) "$RUNNER" $art/$s --device gpu --entry moe_layer_fwd \
      --entry moe_layer_bwd --inputs $IN/$s-balanced --warmup 3 --iters 20 --json \
      > /tmp/fl/$kind-$s-balanced.json 2> /tmp/fl/$kind-$s-balanced.log
    echo "$kind $s rc=$? $(grep -h "done, median" /tmp/fl/$kind-$s-balanced.log | sed 's/.*entry //' | tr '\n' ' ')"
  done
done
cp /tmp/fl/fp8.md "$OUT"/ 2>/dev/null
tar czf "$OUT/fp8-layer-run3.tgz" -C /tmp --exclude=fl/inputs fl 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
