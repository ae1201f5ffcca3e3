#!/usr/bin/env bash
# Device call 2 (one H200): each generated tile's epilogue in the next
# tile's main loop (epilogue-overlap, default on) against the epilogue
# between main loops (off). Artifacts from build.sh (.art/o).
# (1) the generated GEMMs alone, on and off in one run, qwen3-30b-a3b and
#     dsv3-1gpu, fwd/dgrad/wgrad, balanced (bench/generated_gemm.py);
# (2) the full layers profiled, on and off, qwen3-30b-a3b and dsv3-1gpu;
# (3) correctness: scripts/gpu-e2e.sh on the overlap build: small, qwen3 and
#     dsv3 check layers forward and backward, test/gpu's grouped GEMM cases,
#     the NaN and adversarial layers.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
A=.art/o
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) generated_gemm $(date +%T)"
timeout 170 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated $A/gg/on \
  --variant off=$A/gg/off --out "$OUT/gemm" --shapes qwen3-30b-a3b,dsv3-1gpu \
  --passes fwd,dgrad,wgrad --routings balanced --iters 10 --warmup 2 > "$OUT/gemm-run2.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run2.log" | tail -20
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run2.json" 2>/dev/null
echo "=== (2) layers $(date +%T)"
prof() { # label artifact
  timeout 60 "$RUNNER" "$2" --device gpu --iters 20 --warmup 3 --profile > "$OUT/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median|grouped_matmul  |weight_grad  " "$OUT/profile-$1.txt" | head -24
}
prof qwen3-on $A/art/gpu/qwen3-30b-a3b
prof qwen3-off $A/off/gpu/qwen3-30b-a3b
prof dsv3-on $A/art/gpu/dsv3-1gpu
prof dsv3-off $A/off/gpu/dsv3-1gpu
echo "=== (3) gpu-e2e $(date +%T)"
E2E_EXAMPLES="small qwen3-30b-a3b dsv3-1gpu" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art \
  timeout 200 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run2.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run2.log" | head -60
tar czf "$OUT/e2e-run2.tgz" -C "$OUT" e2e e2e-run2.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/e2e"
echo "=== end $(date +%T)"
