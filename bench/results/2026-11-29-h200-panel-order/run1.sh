#!/usr/bin/env bash
# Device call 1 (one H200): panel order of the generated grouped GEMMs' tiles.
# .art/ga4: scripts/gpu-artifacts.sh at the panel change (default panels);
# .art/gg: bench/generated_gemm.py's entries compiled three ways: gen-auto
# (--gemm=generated, default panels), gen-rowmajor (--gemm-panel-tiles=1000:
# m-tile after m-tile, the order before the change) and cublaslt.
#   1. gpu-e2e on .art/ga4: every example's check layer forward and backward
#      (also checks the schedules refactored in 21b64c7 on the device), the
#      GEMM cases (default, 2-tile panels, cuBLASLt), the NaN layer, the
#      adversarial layers;
#   2. bench/generated_gemm.py: every shape, fwd/dgrad/wgrad, balanced and
#      skewed: gen-auto against gen-rowmajor, cuBLASLt and torch._grouped_mm.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga4 timeout 330 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e.log" | head -60
echo "=== generated_gemm $(date +%T)"
timeout 230 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gg/gen-auto \
  --variant rowmajor=.art/gg/gen-rowmajor --cublaslt .art/gg/cublaslt --out "$OUT/gemm" \
  --iters 20 --warmup 3 > "$OUT/gemm.log" 2>&1
echo "generated_gemm rc=$?"
cat "$OUT/gemm.log" | grep -v "^==" | tail -110
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run1.json" 2>/dev/null
tar czf "$OUT/e2e-run1-logs.tgz" -C "$OUT" e2e 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/gemm/inputs-"*
echo "=== end $(date +%T)"
