#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts from build.sh (.art/pk): bf16 weight
# gradients with 128 x 128 tiles run pingpong (each consumer warpgroup
# whole tiles, in turns).
# (1) scripts/gpu-e2e.sh: the GEMM cases (generated on 132 and 8 CTAs, with
#     panels, cuBLASLt), FP8 weight gradients, every example's check layer
#     forward and backward vs the CPU reference, NaN and adversarial layers;
# (2) the GEMMs alone (bench/generated_gemm.py) at qwen3-30b-a3b and
#     dsv3-1gpu, weight gradients, balanced and skewed: pingpong
#     (generated), both consumers on every tile (cooperative), cuBLASLt,
#     torch._grouped_mm, the dense ceiling;
# (3) qwen3-30b-a3b's full layer profiled.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((560 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/pk
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art timeout "$(left 340)" scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run1.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run1.log" | head -60
echo "=== (2) generated_gemm $(date +%T)"
timeout "$(left 150)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated $A/gg/generated \
  --cublaslt $A/gg/cublaslt --variant cooperative=$A/gg/cooperative --out "$OUT/gemm" \
  --shapes qwen3-30b-a3b,dsv3-1gpu --passes wgrad --routings balanced,skewed --iters 10 --warmup 2 \
  > "$OUT/gemm-run1.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run1.log" | tail -24
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run1.json" 2>/dev/null
echo "=== (3) profile $(date +%T)"
timeout "$(left 60)" "$RUNNER" $A/art/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
  --iters 20 --warmup 3 --profile > "$OUT/profile-qwen3-run1.txt" 2>&1
echo "profile rc=$?"
grep -E "^entry .* median|\(sum\)|weight_grad" "$OUT/profile-qwen3-run1.txt"
tar czf "$OUT/logs-run1.tgz" -C "$OUT" e2e e2e-run1.log gemm gemm-run1.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/gemm"
echo "=== end $(date +%T)"
