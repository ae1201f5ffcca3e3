#!/usr/bin/env bash
# Device call 5 (one H200): row reductions split into interleaved chunks
# (split-long-reductions' row rule).
#   .art/ra  qwen3-30b-a3b and dsv3-1gpu (scripts/gpu-artifacts.sh,
#            EXAMPLES="qwen3-30b-a3b dsv3-1gpu") with the row rule
#   .art/rb  the same without it (the compiler of 0e4ad33)
# 1. qwen3-30b-a3b's check layers (cuBLASLt and generated GEMMs) with the
#    row rule against the CPU reference, forward and backward.
# 2. moe_layer_bwd profiles, before and after alternating: qwen3-30b-a3b
#    twice, dsv3-1gpu once.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
mkdir -p "$OUT/logs"
for name in qwen3-30b-a3b qwen3-30b-a3b-generated; do
  near=$(python3 scripts/near-tie-args.py .art/ra/check/gpu/$name.json)
  # shellcheck disable=SC2086 # near is a word list
  timeout 60 "$RUNNER" .art/ra/check/gpu/$name --device gpu --check-against .art/ra/check/cpu/qwen3-30b-a3b \
    --warmup 0 --iters 1 $near > "$OUT/logs/check-$name.log" 2>&1
  echo "check $name rc=$?: $(grep -E '^check:' "$OUT/logs/check-$name.log" | tail -1)"
done
for round in 1 2; do
  for v in rb ra; do
    timeout 40 "$RUNNER" .art/$v/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_bwd --iters 20 --warmup 3 \
      --profile > "$OUT/logs/profile-qwen3-$v-r$round.txt" 2>&1
    echo "qwen3 $v round $round: $(grep -E '^entry' "$OUT/logs/profile-qwen3-$v-r$round.txt" | grep -oE 'median [0-9.]+ ms')"
    grep -E "_reduction|\(sum\)" "$OUT/logs/profile-qwen3-$v-r$round.txt" | awk '$3 > 8 || /sum/' | sed 's/^/    /'
  done
done
for v in rb ra; do
  timeout 50 "$RUNNER" .art/$v/gpu/dsv3-1gpu --device gpu --entry moe_layer_bwd --iters 10 --warmup 2 \
    --profile > "$OUT/logs/profile-dsv3-$v.txt" 2>&1
  echo "dsv3 $v: $(grep -E '^entry' "$OUT/logs/profile-dsv3-$v.txt" | grep -oE 'median [0-9.]+ ms')"
  grep -E "_reduction|\(sum\)" "$OUT/logs/profile-dsv3-$v.txt" | awk '$3 > 8 || /sum/' | sed 's/^/    /'
done
tar czf "$OUT/logs-run5.tgz" -C "$OUT" logs
rm -rf "$OUT/logs" "$OUT/build.log"
