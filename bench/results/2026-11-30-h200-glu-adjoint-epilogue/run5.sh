#!/usr/bin/env bash
# Device call 5 (one H200). run3/run4's glu_adjoint_pingpong had K = 128,
# too few k-steps for pingpong: the staged epilogue was only timed, not
# checked. Now (.art/ga7): the GEMM case with K = 256 (pingpong, staged),
# and test/gpu/Inputs/fused-adjoint-layer.mlir (H = 256, 128 rows a group:
# its dgrad pingpong with the adjoint), each against the CPU, and under
# compute-sanitizer (memcheck, initcheck at 3 stages; racecheck at 2;
# threads storing every tile, the router matmul generated). Then the
# full-size backward: .art/ga5 (run4's kernel) and .art/ga6 (the same with
# the epilogue's arithmetic fast-math: afn, arcp, contract; an experiment,
# not in the tree) against run1's unfused .art/ga1, two rounds.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
N=.art/ga7
S=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases and the fused-adjoint layer vs the CPU $(date +%T)"
for v in gpu gpu-c8; do
  timeout "$(left 60)" "$RUNNER" $N/gemm/$v --device gpu --inputs $N/gemm/in --iters 1 --warmup 0 \
    --check-against $N/gemm/cpu > "$OUT/gemm-$v.log" 2>&1
  echo "gemm $v rc=$?: $(grep -E '^check:' "$OUT/gemm-$v.log")"
  grep -A12 "entry glu_adjoint" "$OUT/gemm-$v.log" | grep -E "entry|result[0-9] .*(PASS|FAIL)"
done
timeout "$(left 60)" "$RUNNER" $N/check/fal --device gpu --check-against $N/check/fal-cpu --iters 1 --warmup 0 \
  > "$OUT/check-fal.log" 2>&1
echo "fused-adjoint-layer rc=$?"; grep -E "FAIL|PASS|^check:" "$OUT/check-fal.log"
echo "=== (2) compute-sanitizer $(date +%T)"
for run in "memcheck gemm3" "initcheck gemm3" "racecheck gemm2" "memcheck fal3" "initcheck fal3" "racecheck fal2"; do
  set -- $run
  args="--inputs $N/gemm/in"
  case $2 in fal*) args="" ;; esac
  extra=""
  [ $1 = initcheck ] && extra=--uninitialized-outputs
  timeout "$(left 120)" $S --tool $1 --error-exitcode 86 --print-limit 20 "$RUNNER" $N/san/$2 $args \
    --device gpu --iters 1 --warmup 0 $extra > "$OUT/san-$1-$2.log" 2>&1
  echo "$1 $2 rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$1-$2.log" | tail -1)"
done
echo "=== (3) backward profiles $(date +%T)"
for round in 1 2; do
  for shape in qwen3-30b-a3b seed-test; do
    for variant in ga5 ga6 unfused; do
      art=.art/$variant/gpu/$shape
      [ $variant = unfused ] && art=.art/ga1/unfused/$shape
      timeout "$(left 60)" "$RUNNER" "$art" --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
        --profile > "$OUT/profile-$shape-$variant-r$round.txt" 2>&1
      echo "$shape $variant round $round rc=$?: $(grep -m1 'median' "$OUT/profile-$shape-$variant-r$round.txt")"
      grep -E "_9_grouped_matmul|_11_elementwise" "$OUT/profile-$shape-$variant-r$round.txt"
    done
  done
done
rm -f "$OUT/build.log"
tar czf "$OUT/logs-run5.tgz" -C "$OUT" $(cd "$OUT" && ls *.log *.txt) 2>/dev/null
rm -rf "$OUT"/*.log "$OUT"/profile-seed-test-*
echo "=== end $(date +%T)"
