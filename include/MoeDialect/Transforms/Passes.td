//===- Passes.td - moe → moe transformations ---------------*- tablegen -*-===//
#ifndef MOE_TRANSFORMS_PASSES_TD
#define MOE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MoeExpandLayerPass : Pass<"moe-expand-layer"> {
  let summary = "Decompose moe.layer into the moe op graph";
  let description = [{
    Replaces every `moe.layer` with the ops that define it: `moe.gate`,
    `moe.route`, `moe.topk`, `moe.permute`, three `moe.grouped_matmul`,
    `moe.glu`, `moe.combine`, and, when their coefficients are non-zero,
    `moe.aux_loss` and `moe.z_loss` (summed into the layer's loss result; a
    zero 0-d tensor when both are off). Post-softmax routing selects on the
    logits (`moe.route identity`) and normalizes with a softmax over the k
    chosen; its aux loss uses a separate `moe.route softmax`.

    `align=N` (N > 1) pads every expert's rows to a multiple of N as well:
    the permute's `align` A becomes the least common multiple of the
    layer's and N, and its row count R = T·K + E·(A − 1) is rounded up to
    a multiple of A. Blockwise FP8 weight gradients contract over the rows
    in blocks of 128; with `align=128` no block straddles two experts
    (DeepGEMM's and Megatron's FP8 padding), at the price of up to 127 zero
    rows an expert in every kernel over the permuted rows. Run it before
    `moe-generate-vjp`, which expands what is left with each layer's own
    `align`.
  }];
  let options = [
    Option<"align", "align", "int64_t", /*default=*/"1",
           "Pad every expert's rows to a multiple of this too (>= 1)">,
    Option<"entryNames", "entry-names", "bool", /*default=*/"true",
           "Name each layer function's arguments and results after the "
           "layer's operands (moe.name / moe.role: x, w_gate, ..., out), as "
           "moe-generate-vjp does; later passes and moe-runner find them by "
           "these names">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoeGenerateVJPPass : Pass<"moe-generate-vjp", "::mlir::ModuleOp"> {
  let summary = "One forward and ONE backward function for a whole MoE block";
  let description = [{
    For each forward function `@f` (the `function` option, else every public
    function with a body that has no `@f_bwd` yet and is not itself a
    `_fwd`/`_bwd`), expands `moe.layer`, then builds:

    - `@f_fwd(args) -> (results..., residuals...)`;
    - `@f_bwd(primal args and residuals..., cotangents...) -> (gradients...)`,
      a single backward for the whole block (not a chain of per-op custom
      VJPs): the ops of `@f` are walked in reverse and each one's adjoint
      (VJPOpInterface) is emitted, cotangents of values used twice summed.

    `@f_bwd` takes the primal arguments its adjoints need (arguments of `@f`
    such as x and the expert weights, under their own names), the residuals
    (the other forward values it needs) and the cotangents. The first two
    come in the order the adjoints first ask for them, the cotangents last.
    An argument of `@f` is never a residual: `@f_fwd` does not return it
    (the caller has it already; returning it would copy every weight on
    every call), and residuals are numbered `res0`, `res1`, ... among
    themselves.

    Cotangents are taken for every float result; gradients are returned for
    every argument a gradient reaches (x, router weight, expert weights; not
    the expert bias, which only steers selection, nor integer inputs).
    Arguments and results carry `moe.name`/`moe.role` (the primal
    arguments' own name and role, residual, cotangent `d_<result>`,
    gradient `d_<arg>`) for the artifact metadata; a name that would repeat
    within `@f_bwd` is an error.

    Per-rank functions (`moe-expert-parallel`'s, whose arguments or results
    carry `moe.split_dim` / `moe.partial_sum`): `@f_fwd` and the arguments
    of `@f` that `@f_bwd` takes keep their annotations, a cotangent
    `d_<result>` has its result's, the gradient `d_<arg>` of a split
    argument is split on the same dim and that of any other argument is
    this rank's `moe.partial_sum` (the caller sums it over the ranks, as
    data-parallel training does); residuals are rank-local and carry none.

    Residual policy (`recompute`): forward values the backward needs are
    saved as residuals, except the results of the op kinds listed, which are
    recomputed in the backward from their own (saved or recomputed)
    operands, and the arguments of `@f`, which it takes directly. Constants
    are always recomputed. The default, `glu`, recomputes
    the expert activation (Megatron/TE's `moe_act` recompute); `glu,permute`
    also recomputes the dispatched tokens; `none` saves everything.

    Upstream ops supported in the forward: arith.addf/subf/mulf/divf/negf/
    truncf/extf and arith.constant on tensors, tensor.empty and
    tensor.expand_shape/collapse_shape; anything else without an adjoint is
    reported by name.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Forward function to differentiate (default: every eligible one)">,
    Option<"recompute", "recompute", "std::string", /*default=*/"\"glu\"",
           "Comma-separated op kinds recomputed in the backward instead of "
           "saved: glu, permute, gate, route; or none">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoeExpertParallelPass : Pass<"moe-expert-parallel", "::mlir::ModuleOp"> {
  let summary = "Partition MoE forward functions over the ranks of a shard.grid axis (expert parallelism)";
  let description = [{
    Rewrites every public function with a body (its `moe.layer`s expanded
    first, as `moe-expand-layer` does) into the per-rank SPMD function of
    expert parallelism over axis `axis` of the `shard.grid` `@grid` (P ranks;
    tokens are sharded over the same ranks, as EP = DP training does):

    - tokens: x and every per-token value (logits, scores, top-k weights and
      indices, the permute's rows, the output) have T/P rows; the arguments
      that feed them get `moe.split_dim = 0`;
    - experts: the expert weights (the `b` of `moe.grouped_matmul`) are
      `[E/P, ...]`, `moe.split_dim = 0`; rank r holds experts
      r·E/P .. (r+1)·E/P − 1;
    - the router weight, the expert bias and constants stay replicated (no
      annotation);
    - dispatch: after `moe.permute` (E global groups) a `moe.all_to_all`
      sends each rank its experts' rows (send_sizes = the group sizes, E/P
      chunks per destination) and `moe.sort_chunks` orders what arrived
      local-expert-major; the grouped matmuls and `moe.glu` run on those
      rows with the E/P local group sizes and weights; before `moe.combine`
      `moe.sort_chunks inverse` and a `moe.all_to_all` with the received
      sizes bring the rows back in the permute's order;
    - losses: `moe.aux_loss batch` becomes `global` on the grid axis (this
      rank's share) and `sequence` whose seq_length divides T/P takes
      coeff/P (seq_length = T: `global`); `moe.z_loss` takes coeff/P; each
      loss is then summed over the ranks by `moe.all_reduce`, so the loss
      results are replicated;
    - `moe.expert_bias_update` gets the counts summed over the ranks
      (`moe.all_reduce`); returned group sizes are this rank's counts
      (`moe.partial_sum`). Group sizes padded by the permute's align > 1
      do not sum over the ranks to the one-rank sizes: either use is then
      an error.

    Data x expert parallelism: on a grid with several axes the tokens are
    split over `axis` and the `data-axes` (D shards in all: rank r's tokens
    are shard s of D, s its coordinates on those axes taken row-major), the
    experts over `axis` only; the exchange runs among the ranks of `axis`
    that share the other coordinates, and the losses and counts are summed
    over the token axes (coeff/D where coeff/P is written above). Axes in
    neither replicate the batch: their ranks compute the same values. The
    annotations then name their axes (`moe.split_axes`, `moe.partial_axes`)
    and the function gets `moe.batch_axes`, the token axes.

    Results are annotated like arguments (`moe.split_dim`, `moe.partial_sum`,
    or nothing: replicated). Without a `shard.grid @grid` in the module the
    pass creates `shard.grid @grid(shape = grid-shape)`, or the 1-D
    `shard.grid @grid(shape = ranks)`; axis `axis` must have a static size
    equal to `ranks` (or `ranks` left 0). Every op
    is rewritten by its kind's semantics; an op kind the pass does not know
    is an error naming it. `moe-generate-vjp` of the result gives the
    per-rank backward (gradients of replicated arguments are this rank's
    partial sums, `moe.partial_sum`: the caller reduces them, as
    data-parallel training does).
  }];
  let options = [
    Option<"grid", "grid", "std::string", /*default=*/"\"ep\"",
           "Symbol name of the shard.grid (created when absent)">,
    Option<"axis", "axis", "int64_t", /*default=*/"0",
           "The grid axis the experts and tokens are split over">,
    Option<"ranks", "ranks", "int64_t", /*default=*/"0",
           "P, the ranks on the axis: the size of a created grid; with an "
           "existing grid it must equal the axis size, or be 0">,
    ListOption<"dataAxes", "data-axes", "int64_t",
               "Other axes of the grid the tokens are also split over (data "
               "parallelism); the grid's remaining axes replicate the batch">,
    ListOption<"gridShape", "grid-shape", "int64_t",
               "The shape of the shard.grid the pass creates when the module "
               "has none (e.g. 2,2 for data x expert parallelism); with an "
               "existing grid it must equal its shape">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoeReadOnlyEntryArgumentsPass
    : Pass<"moe-read-only-entry-arguments", "::mlir::ModuleOp"> {
  let summary = "Mark the tensor arguments of public functions read-only for bufferization";
  let description = [{
    Sets `bufferization.writable = false` on every tensor argument of every
    public `func.func` with a body (an argument that already carries the
    attribute keeps it). A compiled entry's inputs belong to its caller:
    with the mark, one-shot-bufferize copies an argument that a
    destination-style op would otherwise update in place (the amax history
    of `moe.quantize delayed` passed as its destination), so an entry never
    writes its inputs and repeated calls on the same inputs give the same
    outputs. Part of `moe-lower-to-cpu` and `moe-lower-to-gpu`.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def MoeFusePass : Pass<"moe-fuse"> {
  let summary = "Fuse moe ops into fewer kernels (each fusion behind its own option)";
  let description = [{
    `gate-up-epilogue`: a `moe.glu` on the one [R, 2F] result of a
    `moe.grouped_matmul` (a concatenated gate|up weight [G, Kd, 2F], or
    [G, 2F, Kd] for weight_layout nk) that nothing else reads becomes that
    grouped matmul with an epilogue region computing act(gate) · up on the
    f32 accumulators of columns j and F + j, written straight to h [R, F]:
    the [R, 2F] product is never stored. The product is then not rounded
    to its element type before the activation (the fused result is the
    more exact one). A product that is also a residual of the backward
    (moe-generate-vjp without recompute) has another reader and stays.
    Part of `moe-lower-to-gpu` where the grouped GEMMs are generated
    (gemm=generated, and with gemm=auto for the matmuls its rule gives a
    generated kernel: `generated-kernels-only`): on the cuBLASLt path an
    epilogue costs an f32 product buffer, more traffic than the unfused
    bf16 one.

    `gate-up-weights`: a `moe.glu` on two `moe.grouped_matmul` products of
    the same rows (same `a`, group sizes, weight layout and types; gate and
    up stored as two weights, as the example layers keep them; no epilogue,
    FP8 scales or accumulate), read by the glu alone, becomes one grouped
    matmul on both weights (`up_weight`) whose epilogue computes
    act(gate) · up from the two accumulators: neither product is stored
    and the glu's kernel is gone (inference, forward functions without
    saved products). h is computed from the unrounded accumulators. With
    `generated-kernels-only`, only where both matmuls get a generated
    kernel. Part of `moe-lower-to-gpu` where the GEMMs are generated
    (`gemm-gate-up-weights`): on one H200 the inference layer took 2.51
    against 2.62 ms (qwen3-30b-a3b) and 2.61 against 3.03 ms (seed-test).

    `gate-up-weights-residuals` (off by default): the same where the
    products have other readers (the residuals moe-generate-vjp saves for
    the backward, with recompute=none and with recompute=glu): they become
    the epilogue's extra destinations, rounded as before, so the glu's
    reads of them go away. The fused op runs where the glu was, so every
    other reader must come after it. Off by default: the generated kernel
    stores extra destinations from the registers, and on one H200 the
    training forward took 2.57 against 2.59 ms (qwen3-30b-a3b) and 3.18
    against 3.05 ms (seed-test) with it.

    `accumulate-matmuls`: `arith.addf` of two `moe.grouped_matmul` products
    over the same group sizes, each read by the add alone (the gate and up
    halves of a gated FFN's input gradient, dxs = dgate · W_gateᵀ +
    dup · W_upᵀ), becomes the second matmul with `accumulate` into the
    first's result, and the first moves next to it: the sum kernel and the
    [R, N] round trips through memory go away, and the sum is rounded once
    instead of three times. Where both are generated kernels,
    convert-grouped-matmul-to-nvgpu makes the pair one kernel whose main
    loop runs over both products' K (c written once, never read). The
    products are bf16, or block-scaled FP8 of the same operand types and
    weight layout, each with its scales (moe-fp8-placement blockwise's
    dgrads), contracting over at most 4096 (a longer pair measured slower
    than the products apart: mixtral-8x7b's K = 14336).
    Part of `moe-lower-to-gpu` with gemm=generated and gemm=auto (there
    for the matmuls its rule gives a generated kernel).

    `elementwise-epilogue`: an elementwise `linalg.generic` (identity maps,
    2-D, at most three results, scalar body) that reads the product of a
    plain `moe.grouped_matmul` (no epilogue, FP8 scales or accumulate; the
    product read by nothing else) and other [R, N] float tensors available
    where the matmul runs becomes that matmul's epilogue: the other tensors
    are its `epilogue_inputs`, the generic's results its destinations. The
    backward's activation adjoint is one (d_gate and d_up from the saved
    gate and up and dh = dy · W_downᵀ): dh is never stored and the
    adjoint's kernel goes away. The product is not rounded to its element
    type before the body (as with gate-up-epilogue).

    `recompute-in-epilogue`: a `moe.glu` on gate and up that are both
    epilogue inputs of one grouped matmul (the activation moe-generate-vjp
    recomputes for the down projection's weight gradient) becomes one more
    destination of that epilogue, where every h read comes after the
    matmul: the recompute's kernel goes away too.

    `quantize-with-transpose`: two `moe.quantize block_1x128` of one
    matrix x [M, N], one of x and one of `linalg.transpose` x (what
    moe-fp8-placement's blockwise backward makes of each gradient: rowwise
    for the dgrad, columnwise for the wgrad), become one
    `moe.quantize_with_transpose` in the first one's place (M and N
    multiples of 128, static): one kernel makes both, and the transposed
    copy is never written. Bit for bit
    the same results. Also part of `moe-lower-to-gpu`
    (`fp8-quantize-with-transpose`): on one H200 the fused schedule (a
    block per 128 x 128 tile staged in shared memory) took 0.477 ms for
    qwen3-30b-a3b's dy [131072, 2048] where the rowwise and the transposed
    kernels take 0.278 + 0.267.

    `moe-lower-to-gpu` runs both where gate-up-epilogue runs (the generic
    only for matmuls that get a generated kernel; its option
    `gemm-epilogue-fusion`, on by default). On one H200 qwen3-30b-a3b's
    fused dgrad took 850 µs against 652 + 253 µs for the dgrad and the
    adjoint kernel apart.
  }];
  let options = [
    Option<"gateUpEpilogue", "gate-up-epilogue", "bool", /*default=*/"true",
           "Fold the gated activation of a gate|up grouped matmul into its "
           "epilogue">,
    Option<"gateUpWeights", "gate-up-weights", "bool", /*default=*/"true",
           "Fold a glu over two grouped matmuls of the same rows (gate and "
           "up weights apart) that nothing else reads into one grouped "
           "matmul on both weights (up_weight)">,
    Option<"gateUpWeightsResiduals", "gate-up-weights-residuals", "bool",
           /*default=*/"false",
           "gate-up-weights also where the gate and up products have other "
           "readers (the backward's residuals), written as extra "
           "destinations of the epilogue">,
    Option<"accumulateMatmuls", "accumulate-matmuls", "bool",
           /*default=*/"true",
           "Fold the sum of two grouped matmul products of the same rows "
           "into the second one (accumulate)">,
    Option<"elementwiseEpilogue", "elementwise-epilogue", "bool",
           /*default=*/"true",
           "Fold an elementwise consumer of a grouped matmul's product into "
           "its epilogue (inputs and up to three results)">,
    Option<"recomputeInEpilogue", "recompute-in-epilogue", "bool",
           /*default=*/"true",
           "Fold a glu over two epilogue inputs of a grouped matmul into "
           "another destination of that epilogue">,
    Option<"quantizeWithTranspose", "quantize-with-transpose", "bool",
           /*default=*/"true",
           "Make a block_1x128 quantize of a matrix and one of its transpose "
           "one moe.quantize_with_transpose">,
    Option<"generatedKernelsOnly", "generated-kernels-only", "bool",
           /*default=*/"false",
           "Fuse only grouped matmuls that moe-lower-to-gpu's gemm=auto "
           "gives a generated kernel (the others stay with cuBLASLt, where "
           "an epilogue or accumulate costs an f32 product buffer)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoeFP8PlacementPass : Pass<"moe-fp8-placement", "::mlir::ModuleOp"> {
  let summary = "Quantize the expert GEMMs to FP8 (forward, dgrad, wgrad)";
  let description = [{
    Places `moe.quantize` (and, where needed, `moe.dequantize`) around the
    expert GEMMs of every function with a body, so they run on FP8 operands
    with explicit scales. The router, the losses, the activation and the
    combine weighting are not touched: they stay f32/bf16.

    Order with the VJP: run `moe-generate-vjp` FIRST, then this pass. It
    then places FP8 in `@f`, `@f_fwd` and `@f_bwd` alike: a
    `moe.grouped_matmul` in a function named `*_bwd` is a dgrad GEMM (its
    `a` is a gradient), elsewhere a forward GEMM; every
    `moe.grouped_weight_grad` is a wgrad GEMM. (`moe-generate-vjp` refuses
    an FP8 `moe.grouped_matmul`: an FP8 GEMM has no adjoint, by design the
    backward GEMMs are quantized on their own operands, with their own
    scales and formats.)

    fc1 and fc2: a GEMM's layer is read from its weight, `b` (forward,
    dgrad), a function argument named `w_down` (fc2) or `w_gate`, `w_up`
    (fc1) by `moe.name`; for a wgrad, from the `moe.name` of the gradient it
    returns (`d_w_down`, ...). Without names, a forward GEMM whose result
    feeds a `moe.glu` is fc1 and one whose `a` is a `moe.glu` result is fc2.

    Recipes (`recipe`):
    - `tensorwise`: one scale per tensor from its current amax
      (`moe.quantize tensorwise`), FP8 `moe.grouped_matmul` with 0-d scales.
    - `delayed`: one scale per tensor from an amax history: each quantized
      tensor gets a function argument `amax_<gemm>_<operand>` `[L]` f32
      (`amax-history-length`) and a result `new_amax_<gemm>_<operand>`, the
      rolled history, to be fed back on the next call.
    - `blockwise` (DeepSeek-V3): activations and gradients in 1×128 blocks
      along the contraction dimension (`block_1x128`), weights in 128×128
      blocks (`block_128x128`); the contraction dimension must be a
      multiple of 128. Wgrad contracts over the rows: its operands are
      quantized in 128×1 blocks (transposed, `block_1x128`), and the row
      count must be a multiple of 128.
    - `mxfp8`: 1×32 blocks along the contraction dimension with e8m0 scales
      (`mx_1x32`; a kn weight is transposed to nk first). `moe.grouped_matmul`
      takes no MX scales: the operands are dequantized to the layer's type
      and multiplied there, which is exact (a power-of-two scale times an
      FP8 value is a bf16 value) — it lowers on the CPU; the GPU target
      reports MX scaling as unsupported on sm_90.

    Wgrad contracts over the R rows, so its FP8 operands are laid out with
    the rows contiguous: each operand `[R, C]` becomes FP8 `[C, R]` and one
    `moe.grouped_weight_grad ... scales(...) {transposed_operands}` reads
    them. `blockwise` transposes the operand (`linalg.transpose`) and
    quantizes that in 1×128 blocks (scales `[C, R/128]`, i.e. 128×1 blocks
    of the rows); `tensorwise` and `delayed` transpose the FP8 data of the
    operand's ordinary quantization (one scale, whatever the layout: shared
    with the dgrad's gradient, the FP8 residual and their amax histories).
    An operand read by two wgrads (fc1's x, by the gate and up GEMMs) is
    transposed and quantized once. `mxfp8` has no FP8 weight gradient:
    both operands are quantized in 32×1 blocks and dequantized to f32, and
    the weight gradient is computed on those values, accumulated in f32.

    Formats: forward operands (activations, weights) are e4m3;
    gradients (dgrad's `a`, wgrad's `dc`) are `grad-format`, e5m2 by
    default (e4m3 on request).

    `gemms` selects which GEMMs: any of `fc1`, `fc2` (layers; none named:
    both) and `forward`, `dgrad`, `wgrad` (none named: all three); a GEMM is
    placed when its layer and its kind are both selected.

    `fp8-residuals` (default on): a residual of `@f_fwd` that a placed
    forward GEMM quantizes (the dispatched tokens, fc1's input; the glu
    output when it is saved) is returned as that FP8 tensor, followed by
    its scale (`<name>_scale`, role residual), instead of in bf16; `@f_bwd`
    takes both and dequantizes where a reader needs the values. A wgrad of
    recipe tensorwise or delayed reads the saved FP8 tensor (transposed) and
    scale directly (its quantization is orientation-free); blockwise and mxfp8
    re-quantize the dequantized residual in 128×1 / 32×1 blocks for wgrad,
    as DeepSeek-V3 does with its cached 1×128 activations.

    `fp8-weight-residuals` (default on; recipes tensorwise and blockwise,
    whose weight quantization depends on the weight alone): each expert
    weight that a placed forward GEMM of `@f_fwd` quantizes and a placed
    dgrad of `@f_bwd` would quantize again is returned as residuals
    `<name>_fp8` (the FP8 weight) and `<name>_fp8_scale`, and `@f_bwd`'s
    dgrad reads them: the weights are quantized once a step, as in
    DeepSeek-V3 and TransformerEngine, at the cost of keeping the FP8
    weights (half the bf16 weight bytes) until the backward. A 128×128
    block (and a tensor-wise scale) is the same whichever of the weight's
    two dimensions is contracted, so the dgrad's weight is the forward's,
    bit for bit. `delayed` keeps a history per GEMM, so its dgrad
    quantizes on its own.

    `quantize-before-all-to-all`: the quantize of a forward GEMM's `a` is
    moved above the `moe.all_to_all` / `moe.permute` that produced it, so
    the rows move as FP8; the row scales (blockwise) move through the same
    op. A tensor-wise scale can move through `moe.permute` (one rank) but
    not through `moe.all_to_all` (each rank has its own scale), and MX
    scales (e8m0) cannot move through either: both are errors.

    `quantize-before-permute` (default on; recipe blockwise): a forward
    GEMM's `a` that a `moe.permute` produced is quantized above that
    permute, which then moves the FP8 rows; the 1×128 scales follow by a
    `moe.permute_rows` on the permute's `rows`. A 1×128 block lies within
    a row, so every routed row and its scale are the ones quantizing the
    permuted rows gives; padding rows are zero with scale 0 (dequantized:
    zero, as before). The bf16 permuted rows are never written, and the
    quantize reads T rows instead of R = T·K. Other recipes keep the
    quantize below the permute: a tensor-wise amax over the tokens is not
    the one over the routed rows when a pair is dropped. Only where forward
    GEMMs (and the FP8 residual that replaces a saved one) alone read the
    permuted rows: a bf16 residual (fp8-residuals=false) keeps the quantize
    below, which needs one permute, not two. It moves the quantize above the
    permute only; `quantize-before-all-to-all` also above the exchange.
  }];
  let options = [
    Option<"recipe", "recipe", "std::string", /*default=*/"\"tensorwise\"",
           "tensorwise, delayed, blockwise or mxfp8">,
    Option<"gradFormat", "grad-format", "std::string", /*default=*/"\"e5m2\"",
           "FP8 format of gradients: e5m2 or e4m3">,
    ListOption<"gemms", "gemms", "std::string",
               "GEMMs to place: fc1, fc2 and forward, dgrad, wgrad (default: all)">,
    Option<"quantizeBeforeAllToAll", "quantize-before-all-to-all", "bool",
           /*default=*/"false",
           "Quantize above moe.all_to_all / moe.permute so FP8 rows travel">,
    Option<"quantizeBeforePermute", "quantize-before-permute", "bool",
           /*default=*/"true",
           "blockwise: quantize a forward GEMM's tokens above their "
           "moe.permute, so the permute moves FP8 rows (same values)">,
    Option<"fp8Residuals", "fp8-residuals", "bool", /*default=*/"true",
           "Save the forward residuals that a placed GEMM quantizes in FP8, "
           "with their scales">,
    Option<"fp8WeightResiduals", "fp8-weight-residuals", "bool",
           /*default=*/"true",
           "Return the forward's FP8 expert weights as residuals for the "
           "backward's dgrad GEMMs (tensorwise, blockwise)">,
    Option<"amaxHistoryLength", "amax-history-length", "int64_t",
           /*default=*/"16", "Length of the amax history of recipe delayed">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoeFP8WeightInputsPass : Pass<"moe-fp8-weight-inputs", "::mlir::ModuleOp"> {
  let summary = "Take the expert weights as FP8 inputs, quantized by a function of their own";
  let description = [{
    After `moe-fp8-placement`: every `moe.quantize` of a weight argument
    (role `weight`) whose result depends on the weight alone (any recipe but
    `delayed`, whose amax history changes every call) moves out of the
    functions that use it, into one function per layer,
    `@<f>_quantize_weights`, which takes the bf16 weights and returns each
    FP8 weight and its scale (`<name>_fp8`, `<name>_fp8_scale`). The layer's
    functions take those as arguments (role `weight`) instead: the weights
    are quantized once per optimizer step, not on every call, as
    TransformerEngine does for the micro-batches of one step (its weight
    cache) and DeepSeek-V3 with its FP8 weights.

    - `@f` and `@f_fwd` (`<f>` is their name without `_fwd`, and the same
      function serves `@f_bwd`) get `<name>_fp8` and `<name>_fp8_scale` in
      place of the bf16 weight when nothing else reads it;
    - `@f_fwd`'s FP8 weight residuals (`moe-fp8-placement`'s
      `fp8-weight-residuals`), now its own arguments, are no longer
      returned; `@f_bwd` takes the same arguments as weights;
    - a bf16 weight argument that nothing reads any more goes (`@f_bwd`'s
      weights, whose dgrads read the FP8 ones: its weight gradients need
      only the activations).

    - with `kmajor-copies` (default on): a `moe.grouped_matmul` that reads
      an FP8 weight argument `kn` (`[G, K, N]`: the forward's GEMMs) reads
      `<name>_fp8_t` (`[G, N, K]`, role `weight`) `nk` instead, with
      `<name>_fp8_t_scale` (the block scales' last two dimensions swapped;
      a tensor-wise scale is shared), which `@<f>_quantize_weights`
      returns too, transposing its FP8 result. FP8 wgmma reads B K-major
      only, so the GPU lowering otherwise transposes a `kn` FP8 weight on
      every call; the dgrads read the weight `nk` as it is. Transposing an
      FP8 tensor and its 128 x 128 block scales is exact, as
      TransformerEngine keeps a transposed FP8 weight for Hopper. An FP8
      weight that no function reads any more is neither an argument nor a
      result. An argument already named `<name>_fp8_t` is an error.

    A weight split over ranks along its experts (`moe.split_dim = 0`,
    moe-expert-parallel) has its FP8 forms, scales and copies split the
    same way, and so are the quantize function's arguments and results
    (each rank quantizes its own experts); another split dimension, or one
    scale for the whole weight (tensor-wise: each rank's would be its own
    experts' amax), is an error. Functions named `*_quantize_weights` are not layers: a second
    run changes nothing.

    The outputs are bit for bit those of the placed functions when the FP8
    arguments are `@<f>_quantize_weights`' results. Two quantizations of one
    weight with different recipes or types in one layer's functions are an
    error.
  }];
  let options = [
    Option<"kmajorCopies", "kmajor-copies", "bool", /*default=*/"true",
           "Give GEMMs that read an FP8 weight kn its [G, N, K] copy, "
           "transposed once in @<f>_quantize_weights">,
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

#endif // MOE_TRANSFORMS_PASSES_TD
