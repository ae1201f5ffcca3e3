#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts from build.sh (.art/ps: before the
# router change) and build-router.sh (.art/rt: after it).
# (1) pingpong kernels stored by threads (gemm-tma-store=false, as the
#     sanitizer builds): test/gpu's GEMM cases against the CPU at 3 and 2
#     stages, 132 and 8 CTAs;
# (2) (last, in the time left) compute-sanitizer on them: memcheck + initcheck (3 stages), racecheck
#     (2 stages), 132 and 8 CTAs (scripts/gpu-sanitize.sh, artifact gemm);
# (3) the router's f32 contractions as one GEMM: test/gpu/split-matmul.test's
#     checks (split-matmul.mlir against the CPU; split-matmul-bf16.mlir's
#     dumps compared at 1e-5);
# (4) qwen3-30b-a3b's full layer profiled before and after the router change;
# (5) scripts/gpu-e2e.sh on the router build: small, qwen3-30b-a3b and
#     seed-test check layers forward and backward, the GEMM cases, FP8
#     weight gradients, NaN and adversarial layers.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
P=.art/ps R=.art/rt
# Seconds left of a 570-second budget (at most $1), for the sanitizer runs last.
START=$SECONDS
left() { local l=$((570 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) GEMM cases stored by threads $(date +%T)"
for root in m3 m3c8 r2 r2c8; do
  timeout 90 "$RUNNER" $P/$root/gemm/gpu --device gpu --inputs $P/$root/gemm/in --iters 1 --warmup 0 \
    --check-against $P/$root/gemm/cpu > "$OUT/gemm-$root.log" 2>&1
  echo "gemm $root rc=$? $(grep -E '^check:' "$OUT/gemm-$root.log")"
done
echo "=== (3) split matmuls $(date +%T)"
timeout 60 "$RUNNER" $R/split/split-matmul-gpu --device gpu --seed 5 --iters 1 --warmup 0 \
  --check-against $R/split/split-matmul-cpu > "$OUT/split.log" 2>&1
echo "split-matmul rc=$?"; grep -E "rel_l2|^check:" "$OUT/split.log"
"$RUNNER" $R/split/split-matmul-bf16-cpu --device cpu --seed 5 --iters 1 --warmup 0 --dump "$OUT/sd-cpu" > /dev/null 2>&1
timeout 60 "$RUNNER" $R/split/split-matmul-bf16-gpu --device gpu --seed 5 --iters 1 --warmup 0 --dump "$OUT/sd-gpu" > "$OUT/split-bf16.log" 2>&1
echo "split-matmul-bf16 rc=$?"
python3 scripts/compare-dumps.py "$OUT/sd-cpu" "$OUT/sd-gpu" --default-tol 1e-5; echo "compare rc=$?"
echo "=== (4) profiles $(date +%T)"
prof() { # label artifact
  timeout 60 "$RUNNER" "$2" --device gpu --entry moe_layer_fwd --entry moe_layer_bwd --iters 20 --warmup 3 --profile > "$OUT/profile-$1.txt" 2>&1
  echo "--- $1 rc=$?"; grep -E "^entry .* median|matmul_bf16|split_bf16|_gate |grouped_matmul |weight_grad " "$OUT/profile-$1.txt" | head -40
}
prof qwen3-before $P/art/gpu/qwen3-30b-a3b
prof qwen3-router $R/art/gpu/qwen3-30b-a3b
echo "=== (5) gpu-e2e $(date +%T)"
E2E_EXAMPLES="small qwen3-30b-a3b seed-test" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$R/art \
  timeout 200 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run1.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run1.log" | head -60
echo "=== (2) sanitizers $(date +%T)"
# memcheck + initcheck (roots m3*) or racecheck (r2*) on root $1.
sanitize() {
  local root=$1 tools="memcheck initcheck" cap=320
  [[ $root == r2* ]] && tools=racecheck cap=170
  SANITIZE_ARTIFACTS=gemm SANITIZE_TOOLS="$tools" SANITIZE_TIMEOUT_S=150 BUILD_GPU=/tmp/rb \
    MOE_ARTIFACTS_ROOT=$P/$root SANITIZE_SHARED_ROOT=$P/$root timeout "$(left $cap)" \
    scripts/gpu-sanitize.sh "$OUT/san-$root" > "$OUT/san-$root.log" 2>&1
  echo "sanitize $root rc=$?"; sed -n '/=== summary/,$p' "$OUT/san-$root.log"
}
for root in m3 r2c8 m3c8 r2; do sanitize $root; done
tar czf "$OUT/logs-run1.tgz" -C "$OUT" e2e e2e-run1.log san-m3 san-m3c8 san-r2 san-r2c8 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/san-m3" "$OUT/san-m3c8" "$OUT/san-r2" "$OUT/san-r2c8" "$OUT/sd-cpu" "$OUT/sd-gpu"
echo "=== end $(date +%T)"
