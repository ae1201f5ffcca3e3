# Sourced by the scripts that check GPU dumps against the CPU's bit for bit
# (gpu-transpose.sh, gpu-fp8-quantize.sh).
#
#   moe_compare_dumps NAME CPU_DIR GPU_DIR
#
# Compares every .npy under CPU_DIR (moe-runner --dump) with the same path
# under GPU_DIR, byte for byte; prints "NAME: identical (N dumps)", or a
# FAIL line with the counts and the differing files, each followed by its
# first differing elements (npy-first-differences.py). Returns 1 when no
# dump exists, the two sides hold different numbers of dumps, or any differ.
moe_compare_dumps() {
  local name=$1 cpu=$2 gpu=$3
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local files=0 gpu_files ref rel
  local differ=()
  while IFS= read -r ref; do
    rel=${ref#"$cpu/"}
    files=$((files + 1))
    cmp -s "$ref" "$gpu/$rel" || differ+=("$rel")
  done < <(find "$cpu" -name '*.npy' | sort)
  gpu_files=$(find "$gpu" -name '*.npy' 2>/dev/null | wc -l)
  if [ "$files" = 0 ] || [ "$files" != "$gpu_files" ] || [ ${#differ[@]} != 0 ]; then
    echo "$name: FAIL: $files cpu dumps, $gpu_files gpu dumps, differing: ${differ[*]:-}"
    for rel in "${differ[@]}"; do
      python3 "$root/scripts/npy-first-differences.py" "$cpu/$rel" "$gpu/$rel" 3
    done
    return 1
  fi
  echo "$name: identical ($files dumps)"
}
