#!/usr/bin/env bash
# Device call 6 (one H200). The tree's kernel (.art/ga8): the epilogue's
# arithmetic with fast-math flags by default
# (convert-grouped-matmul-to-nvgpu{epilogue-fast-math}), per-chunk input
# loads on the register path.
# (1) the GEMM cases (132 CTAs; and threads storing every tile on 8 CTAs)
#     and the fused-adjoint layer vs the CPU;
# (2) full-size backward, fused (ga8) vs unfused (ga1), three rounds.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((400 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
N=.art/ga8
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases and the fused-adjoint layer vs the CPU $(date +%T)"
for v in gpu gpu-threads-c8; do
  timeout "$(left 60)" "$RUNNER" $N/gemm/$v --device gpu --inputs $N/gemm/in --iters 1 --warmup 0 \
    --check-against $N/gemm/cpu > "$OUT/gemm-$v.log" 2>&1
  echo "gemm $v rc=$?: $(grep -E '^check:' "$OUT/gemm-$v.log")"
  grep -A12 "entry glu_adjoint" "$OUT/gemm-$v.log" | grep -E "entry|result[0-9] .*(PASS|FAIL)"
done
timeout "$(left 60)" "$RUNNER" $N/check/fal --device gpu --check-against $N/check/fal-cpu --iters 1 --warmup 0 \
  > "$OUT/check-fal.log" 2>&1
echo "fused-adjoint-layer rc=$?"; grep -E "FAIL|d_|^check:" "$OUT/check-fal.log" | grep -v gradient
echo "=== (2) backward profiles $(date +%T)"
for round in 1 2 3; do
  for shape in qwen3-30b-a3b seed-test; do
    for variant in fused unfused; do
      art=$N/gpu/$shape
      [ $variant = unfused ] && art=.art/ga1/unfused/$shape
      timeout "$(left 60)" "$RUNNER" "$art" --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
        --profile > "$OUT/profile-$shape-$variant-r$round.txt" 2>&1
      echo "$shape $variant round $round rc=$?: $(grep -m1 'median' "$OUT/profile-$shape-$variant-r$round.txt")"
      grep -E "_9_grouped_matmul|_11_elementwise" "$OUT/profile-$shape-$variant-r$round.txt"
    done
  done
done
rm -f "$OUT/build.log"
tar czf "$OUT/logs-run6.tgz" -C "$OUT" $(cd "$OUT" && ls *.log *.txt) 2>/dev/null
rm -rf "$OUT"/*.log "$OUT"/profile-seed-test-*
echo "=== end $(date +%T)"
