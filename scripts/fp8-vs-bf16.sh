#!/usr/bin/env bash
# FP8-placed layers against the same bf16 layer on the CPU: one row per
# (layer, recipe) with the relative L2 difference of the output and of each
# gradient (scripts/compare-dumps.py), as a markdown table.
#   scripts/fp8-vs-bf16.sh BUILD_DIR OUT_DIR LAYER.mlir...
# Recipes: tensorwise, delayed (second call, histories calibrated on the
# first: test/e2e/fp8/Inputs/calibrate-histories.py), blockwise, mxfp8,
# blockwise with e4m3 gradients. Layers whose dimensions are not multiples
# of 128 skip blockwise (moe-fp8-placement refuses it).
set -euo pipefail
build=$1 out=$2; shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/bin
export MOE_CACHE_DIR=$out/cache
mkdir -p "$out"
run() { "$bin/moe-runner" "$1" --device cpu --iters 1 --warmup 0 "${@:2}" > /dev/null 2>&1; }
echo "| layer | recipe | out | d_x | d_w_gate | d_w_up | d_w_down | d_router_weight | FP8 residual x |"
echo "|---|---|---|---|---|---|---|---|---|"
for layer in "$@"; do
  name=$(basename "$layer" .mlir)
  dir=$out/$name
  mkdir -p "$dir"
  "$bin/moe-opt" "$layer" --moe-generate-vjp -o "$dir/bf16.mlir"
  run "$dir/bf16.mlir" --dump "$dir/ref"
  for recipe in tensorwise delayed blockwise mxfp8 blockwise/e4m3; do
    options="recipe=${recipe%/*}"
    [[ $recipe == */e4m3 ]] && options+=" grad-format=e4m3"
    tag=${recipe/\//-}
    if ! "$bin/moe-opt" "$dir/bf16.mlir" "--moe-fp8-placement=$options" \
        -o "$dir/$tag.mlir" 2> "$dir/$tag.err"; then
      echo "| $name | $recipe | refused: $(grep -o "contracts over Kd = [0-9]*" "$dir/$tag.err" | head -1) |||||||"
      continue
    fi
    inputs=()
    if [[ $recipe == delayed ]]; then
      run "$dir/$tag.mlir" --dump "$dir/$tag.first"
      python3 "$src/test/e2e/fp8/Inputs/calibrate-histories.py" \
        "$dir/$tag.first" "$dir/$tag.histories" > /dev/null
      inputs=(--inputs "$dir/$tag.histories")
    fi
    run "$dir/$tag.mlir" "${inputs[@]}" --dump "$dir/$tag.out"
    python3 "$src/scripts/compare-dumps.py" "$dir/ref" "$dir/$tag.out" \
      --default-tol 1e9 > "$dir/$tag.cmp"
    get() { grep -o "^$1 rel_l2=[^ ]*" "$dir/$tag.cmp" | head -1 | cut -d= -f2 || true; }
    # The first residual saved in FP8 (the dispatched tokens), dequantized.
    res=$(for scale in "$dir/$tag.out"/moe_layer_fwd/res*_scale.npy; do
            [[ -e $scale ]] && get "moe_layer_fwd/$(basename "$scale" _scale.npy)"
          done | head -1)
    echo "| $name | $recipe | $(get moe_layer/out) | $(get moe_layer_bwd/d_x) | $(get moe_layer_bwd/d_w_gate) | $(get moe_layer_bwd/d_w_up) | $(get moe_layer_bwd/d_w_down) | $(get moe_layer_bwd/d_router_weight) | ${res:-} |"
  done
done
