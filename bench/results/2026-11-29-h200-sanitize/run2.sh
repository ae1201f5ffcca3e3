#!/bin/bash
# One H200: the NCCL collectives test at P = 1 under compute-sanitizer
# memcheck, with CUDA API errors not reported (NCCL's own probes hit some)
# and MOE_TEST_DEVICE_EXCHANGE=optional: under the sanitizer cuMemCreate is
# not permitted, so NCCL has no symmetric memory and the device exchange must
# say so (a stated skip) instead of running a kernel on a host pointer; the
# host-counts exchange and the all-reduce are checked under memcheck.
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
CS=/usr/local/cuda/bin/compute-sanitizer
cmake -G Ninja -S runtime -B "$BUILD_GPU" -DCMAKE_BUILD_TYPE=Release -DMOE_GPU_BUILD_BENCH=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build "$BUILD_GPU" --target moe-gpu-collectives-test >> "$OUT/build.log" 2>&1 || tail -20 "$OUT/build.log"
COLL=$(find "$BUILD_GPU" -name moe-gpu-collectives-test -type f -perm -u+x | head -1)
echo "== plain P=1"
timeout 100 "$COLL" 1 > "$OUT/coll.log" 2>&1; echo "rc=$?"; grep -E "checks|PASSED|FAIL|SKIP" "$OUT/coll.log" | head
echo "== memcheck P=1"
MOE_TEST_DEVICE_EXCHANGE=optional timeout 200 $CS --tool memcheck --report-api-errors no --error-exitcode 86 "$COLL" 1 > "$OUT/coll-memcheck.log" 2>&1; echo "rc=$?"
grep -E "checks|PASSED|FAIL|SKIP|ERROR SUMMARY|Invalid" "$OUT/coll-memcheck.log" | head
echo "== initcheck P=1"
MOE_TEST_DEVICE_EXCHANGE=optional timeout 200 $CS --tool initcheck --report-api-errors no --error-exitcode 86 "$COLL" 1 > "$OUT/coll-initcheck.log" 2>&1; echo "rc=$?"
grep -E "checks|PASSED|FAIL|SKIP|ERROR SUMMARY|Uninitialized" "$OUT/coll-initcheck.log" | head
