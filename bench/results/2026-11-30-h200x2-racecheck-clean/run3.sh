#!/usr/bin/env bash
# Device call 3 (one H200): is racecheck's FP8/K-major report an aliasing of
# the kernel's static mbarriers (shared window 0x400-0x427, after the 1 KB
# that sm_90 reserves) with the first bytes of stage 0 (window 0x800, which
# the K-major zeroing writes in a group's first k-step)?
#   .art/v5/fp8wgrad/main-s2       main (abce7ad) at 2 stages
#   .art/v5/fp8wgrad/kmajor-gpu-sN main with the stages 1 KB further up
#                                  (window 0xc00): nothing writes the
#                                  window's 0x800-0x827 any more
# racecheck --racecheck-report hazard shows each hazard's address.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
W=.art/v5/fp8wgrad
for v in main-s2 kmajor-gpu-s2; do
  CUDA_LAUNCH_BLOCKING=1 timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
    --racecheck-report hazard --print-limit 40 \
    "$RUNNER" $W/$v --inputs $W/kmajor-in --device gpu --iters 1 --warmup 0 > "$OUT/logs/racecheck-$v.log" 2>&1
  echo "=== $v racecheck rc=$?"
  grep -E "RACECHECK SUMMARY" "$OUT/logs/racecheck-$v.log"
  grep -oE "(Write|Read) [A-Za-z ]*at (0x[0-9a-f]+ in )?__moe_entry_[0-9_a-z]+\+0x[0-9a-f]+|[Aa]ddress 0x[0-9a-f]+" \
    "$OUT/logs/racecheck-$v.log" | sort | uniq -c | sort -rn | head -16
done
for s in s0 s2; do
  timeout 120 "$RUNNER" $W/kmajor-gpu-$s --inputs $W/kmajor-in --device gpu --iters 1 --warmup 0 \
    --check-against $W/kmajor-cpu > "$OUT/logs/check-$s.log" 2>&1
  echo "padded $s check rc=$? $(grep -E '^check:' "$OUT/logs/check-$s.log" | tail -1)"
done
head -60 "$OUT/logs/racecheck-main-s2.log"
tar czf "$OUT/logs-run3.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
