#!/usr/bin/env bash
# Device call 2 (one H200). run1 measured the fused dgrad slower than the
# unfused pair: its epilogue loaded each 8-column chunk's inputs after the
# previous chunk's stores (which may alias them): one memory round trip a
# chunk. .art/ga2 has the kernel that loads a half row's inputs first;
# .art/ga1 the CPU references, inputs and the unfused layers of run1.
# (1) the GEMM cases (glu_adjoint among them) on 132 and 8 CTAs vs the CPU;
# (2) small, seed-test, qwen3-30b-a3b check layers with generated GEMMs vs
#     the CPU reference, forward and backward;
# (3) the full-size backward of qwen3-30b-a3b and seed-test, fused (ga2) and
#     unfused (ga1), moe-runner --profile, median of 20, two rounds.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/ga1/art
N=.art/ga2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases $(date +%T)"
for v in gpu gpu-c8; do
  timeout "$(left 60)" "$RUNNER" $N/gemm/$v --device gpu --inputs $A/gemm/in --iters 1 --warmup 0 \
    --check-against $A/gemm/cpu > "$OUT/gemm-$v.log" 2>&1
  echo "gemm $v rc=$?: $(grep -E '^check:' "$OUT/gemm-$v.log")"
  grep -A4 "entry glu_adjoint on gpu" "$OUT/gemm-$v.log" | grep -E "result|FAIL"
done
echo "=== (2) check layers, generated GEMMs $(date +%T)"
for s in small seed-test qwen3-30b-a3b; do
  ties=$(python3 scripts/near-tie-args.py $N/check/$s-generated.json)
  timeout "$(left 120)" "$RUNNER" $N/check/$s-generated --device gpu --check-against $A/check/cpu/$s \
    --iters 1 --warmup 0 $ties > "$OUT/check-$s.log" 2>&1
  echo "$s-generated rc=$?"; grep -E "FAIL|^check:|near-tie" "$OUT/check-$s.log"
done
echo "=== (3) backward profiles, fused vs unfused $(date +%T)"
for round in 1 2; do
  for shape in qwen3-30b-a3b seed-test; do
    for variant in fused unfused; do
      art=$N/gpu/$shape
      [ $variant = unfused ] && art=.art/ga1/unfused/$shape
      timeout "$(left 60)" "$RUNNER" "$art" --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
        --profile > "$OUT/profile-$shape-$variant-r$round.txt" 2>&1
      echo "$shape $variant round $round rc=$?: $(grep -m1 'median' "$OUT/profile-$shape-$variant-r$round.txt")"
      grep -E "_9_grouped_matmul|_11_elementwise|_10_grouped_weight" "$OUT/profile-$shape-$variant-r$round.txt"
    done
  done
done
rm -f "$OUT/build.log"
tar czf "$OUT/logs-run2.tgz" -C "$OUT" $(cd "$OUT" && ls *.log *.txt) && rm -f "$OUT"/*.log "$OUT"/profile-seed-test-*
echo "=== end $(date +%T)"
