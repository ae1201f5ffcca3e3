#!/bin/bash
# Session 7, call 8 (one H100): issue 17: mixtral-8x7b and dsv3-1gpu check-size layers (moe_layer_bwd, with its
# forward) with generated GEMMs stored by threads and 3 stages, under initcheck and memcheck; gpu-e2e of them.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$ROOT" "$BUILD_GPU" /usr/local/cuda "$OUT/build.log" || { tail -30 "$OUT/build.log"; exit 1; }
MOE_ARTIFACTS_ROOT=$ROOT/.art/san4 SANITIZE_ARTIFACTS="mixtral-8x7b dsv3-1gpu" SANITIZE_TOOLS="initcheck memcheck" \
  SANITIZE_JOBS=4 SANITIZE_TIMEOUT_S=400 timeout 430 bash scripts/gpu-sanitize.sh "$OUT/san" > "$OUT/san.txt" 2>&1
echo "san rc=$?"; sed -n '/=== summary/,$p' "$OUT/san.txt" | head -20
cd "$OUT" && tar czf logs.tgz san.txt san 2>/dev/null; rm -rf san
