#!/usr/bin/env bash
# Device call 4 (one H200). As run3, with the staged epilogue software-
# pipelined (each pass loads the next pass's inputs before its arithmetic).
# Was: the pingpong kernel runs an epilogue with
# inputs or extra destinations over its staged bf16 boxes, 8 columns a
# thread in a loop (qwen3's fused dgrad cubin: 70 KB, was 176 KB; unfused
# 47 KB). .art/ga5: that kernel; .art/ga1: run1's CPU references and the
# unfused full-size layers.
# (1) the GEMM cases (glu_adjoint_pingpong: the staged path) on 132 and 8
#     CTAs vs the CPU;
# (2) the check layers with generated GEMMs and the fusion vs the CPU, and
#     small at T = 1024 (128-row tiles: the staged path in a layer);
# (3) full-size backward, fused (ga4) vs unfused (ga1), --profile, 2 rounds;
# (4) compute-sanitizer memcheck, initcheck (3 stages) and racecheck (2
#     stages) on the GEMM cases, threads storing every tile (run4: and the
#     router matmul of gate_up_layer as the compiler's kernel,
#     --dense-matmuls=false: cuBLASLt's TMA stores are invisible to initcheck).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/ga1/art
N=.art/ga5
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases $(date +%T)"
for v in gpu gpu-c8; do
  timeout "$(left 60)" "$RUNNER" $N/gemm/$v --device gpu --inputs $N/gemm/in --iters 1 --warmup 0 \
    --check-against $N/gemm/cpu > "$OUT/gemm-$v.log" 2>&1
  echo "gemm $v rc=$?: $(grep -E '^check:' "$OUT/gemm-$v.log")"
  grep -A12 "entry glu_adjoint" "$OUT/gemm-$v.log" | grep -E "entry|result[0-9] .*(PASS|FAIL)"
done
echo "=== (2) check layers, generated GEMMs, fused $(date +%T)"
for s in qwen3-30b-a3b small1024; do
  ref=$A/check/cpu/$s
  [ $s = small1024 ] && ref=$N/check/small1024-cpu
  ties=$(python3 scripts/near-tie-args.py $N/check/$s-generated.json)
  timeout "$(left 120)" "$RUNNER" $N/check/$s-generated --device gpu --check-against $ref \
    --iters 1 --warmup 0 $ties > "$OUT/check-$s.log" 2>&1
  echo "$s-generated rc=$?"; grep -E "FAIL|^check:|d_w_|d_x" "$OUT/check-$s.log"
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
      grep -E "_9_grouped_matmul|_11_elementwise" "$OUT/profile-$shape-$variant-r$round.txt"
    done
  done
done
echo "=== (4) compute-sanitizer on the GEMM cases $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$N/san3 SANITIZE_SHARED_ROOT=$N/san2 SANITIZE_ARTIFACTS=gemm \
  SANITIZE_TOOLS="memcheck initcheck racecheck" SANITIZE_TIMEOUT_S=150 \
  timeout "$(left 400)" scripts/gpu-sanitize.sh "$OUT/sanitize" > "$OUT/sanitize.log" 2>&1
echo "gpu-sanitize rc=$?"
tail -12 "$OUT/sanitize.log"
rm -f "$OUT/build.log"
tar czf "$OUT/logs-run4.tgz" -C "$OUT" $(cd "$OUT" && ls *.log *.txt) sanitize 2>/dev/null
rm -rf "$OUT"/*.log "$OUT"/profile-seed-test-* "$OUT/sanitize"
echo "=== end $(date +%T)"
