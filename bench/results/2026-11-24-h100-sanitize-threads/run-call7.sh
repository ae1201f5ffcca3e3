#!/bin/bash
# Session 7, call 7 (one H100): issue 17: generated GEMMs with output tiles stored by threads
# (--gemm-tma-store=false) and 3 stages: the GEMM cases against the CPU, then compute-sanitizer initcheck and
# memcheck on them and on the qwen3 / seed-test check-size layers (generated GEMMs).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$ROOT" "$BUILD_GPU" /usr/local/cuda "$OUT/build.log" || { tail -30 "$OUT/build.log"; exit 1; }
echo "== gemm cases (tma-store=false) vs CPU"
timeout 60 "$RUNNER" .art/san4/gemm/gpu --device gpu --inputs .art/san4/gemm/in --iters 1 --warmup 0 --check-against .art/san4/gemm/cpu 2>&1 | grep -E "^check:|FAIL"
MOE_ARTIFACTS_ROOT=$ROOT/.art/san4 SANITIZE_ARTIFACTS="gemm qwen3-30b-a3b seed-test" SANITIZE_TOOLS="initcheck memcheck" \
  SANITIZE_JOBS=6 SANITIZE_TIMEOUT_S=460 timeout 520 bash scripts/gpu-sanitize.sh "$OUT/san" > "$OUT/san.txt" 2>&1
echo "san rc=$?"; sed -n '/=== summary/,$p' "$OUT/san.txt" | head -40
cd "$OUT" && tar czf logs.tgz san.txt san 2>/dev/null; rm -rf san
