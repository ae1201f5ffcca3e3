#!/usr/bin/env bash
# Device call 4 of this session (one H200): pingpong consumers in the
# generated grouped matmuls (128 x 128 tiles of 4 or more k-steps: each
# consumer warpgroup runs whole tiles, the two taking turns). Artifacts from
# build.sh (.art/p).
# (1) test/gpu's generated GEMM cases against the CPU: 132 CTAs (pingpong on),
#     8 CTAs with pingpong on and off (many tiles a CTA);
# (2) qwen3-30b-a3b's full layer profiled, pingpong on and off, same run;
# (3) qwen3-30b-a3b's check layer forward and backward against the CPU
#     (scripts/gpu-e2e.sh), pingpong on.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
A=.art/p
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases $(date +%T)"
python3 test/gpu/Inputs/write-group-sizes.py /tmp/gin
check() { # label artifact
  timeout 60 "$RUNNER" "$2" --device gpu --inputs /tmp/gin --iters 1 --warmup 0 \
    --check-against $A/art/gemm/cpu > "$OUT/check-$1.log" 2>&1
  echo "--- $1 rc=$? $(grep -E '^check:' "$OUT/check-$1.log")"; grep -B3 FAIL "$OUT/check-$1.log" | grep -E "^entry|FAIL" | head -6
}
check gemm-132 $A/art/gemm/gpu
check gemm-ctas8-on $A/gemm-ctas8/on
check gemm-ctas8-off $A/gemm-ctas8/off
echo "=== (2) qwen3 layer $(date +%T)"
prof() { # label artifact
  timeout 60 "$RUNNER" "$2" --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median|grouped_matmul  |weight_grad  " "$OUT/profile-$1.txt" | head -24
}
prof qwen3-on $A/art/gpu/qwen3-30b-a3b
prof qwen3-off $A/off/gpu/qwen3-30b-a3b
prof qwen3-on-again $A/art/gpu/qwen3-30b-a3b
echo "=== (3) qwen3 check layer $(date +%T)"
E2E_EXAMPLES="qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art \
  timeout 200 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run4.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run4.log" | head -40
tar czf "$OUT/logs-run4.tgz" -C "$OUT" $(cd "$OUT" && ls check-*.log e2e-run4.log) e2e 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT"/check-*.log
echo "=== end $(date +%T)"
