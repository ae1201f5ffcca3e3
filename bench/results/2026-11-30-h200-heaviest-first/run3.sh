#!/usr/bin/env bash
# Device call 3 (one H200). Artifacts from build4.sh (.art/hf3).
# (1) seed-test's and mixtral-8x7b's forward and dgrad GEMMs alone: the
#     default tile width (256 where N >= 4096), --gemm-block-n=128
#     (pingpong), cuBLASLt and torch._grouped_mm, balanced;
# (2) the sanitizer builds of test/gpu's generated GEMM cases (3 and 2
#     stages, stores by threads; 132 and 8 CTAs: on 8, wgrad_pingpong's 32
#     tiles run in 4 rounds dealt in alternating directions, its skewed
#     sizes taking the heaviest-first schedule) checked against the CPU;
# (3) compute-sanitizer memcheck and initcheck (3 stages) and racecheck
#     (2 stages) on them.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((520 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/hf3
SAN=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) generated_gemm 8 experts, tile width $(date +%T)"
timeout "$(left 150)" python3 bench/generated_gemm.py run --runner "$RUNNER" --generated $A/bn/auto \
  --cublaslt $A/bn/cublaslt --variant bn128=$A/bn/bn128 --out "$OUT/gemm" \
  --shapes seed-test,mixtral-8x7b --passes fwd,dgrad --routings balanced --iters 10 --warmup 2 \
  > "$OUT/gemm-run3.log" 2>&1
echo "generated_gemm rc=$?"
grep -v "^==" "$OUT/gemm-run3.log" | tail -20
cp "$OUT/gemm/generated_gemm.json" "$OUT/generated_gemm-run3.json" 2>/dev/null
echo "=== (2) sanitizer builds vs CPU $(date +%T)"
for v in san3/c132 san3/c8 san2/c132 san2/c8; do
  timeout 60 "$RUNNER" $A/$v --device gpu --inputs $A/gemm-in --iters 1 --warmup 0 \
    --check-against $A/gemm-cpu > "$OUT/check.txt" 2>&1
  echo "$v rc=$? entries $(grep -c '^entry' "$OUT/check.txt") PASS $(grep -c ' PASS' "$OUT/check.txt") FAIL $(grep -c ' FAIL' "$OUT/check.txt")"
done
echo "=== (3) compute-sanitizer $(date +%T)"
mkdir -p "$OUT/san"
for run in memcheck:san3/c132 memcheck:san3/c8 initcheck:san3/c132 initcheck:san3/c8 racecheck:san2/c132 racecheck:san2/c8; do
  tool=${run%%:*}; v=${run#*:}; tag=$tool-${v//\//-}
  l=$(left 150); [ "$l" -lt 40 ] && { echo "skipped $tag: no time left"; continue; }
  extra=""; [ "$tool" = initcheck ] && extra=--uninitialized-outputs
  timeout --kill-after=20 "$l" $SAN --tool $tool --error-exitcode 86 --print-limit 50 \
    "$RUNNER" $A/$v --device gpu --inputs $A/gemm-in --iters 1 --warmup 0 $extra > "$OUT/san/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san/$tag.log" | tail -1) entries $(grep -c '^entry' "$OUT/san/$tag.log")"
done
tar czf "$OUT/logs-run3.tgz" -C "$OUT" gemm gemm-run3.log san 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/gemm" "$OUT/san" "$OUT/check.txt"
echo "=== end $(date +%T)"
