//===- MoeOps.td - operations of the moe dialect -----------*- tablegen -*-===//
//
// Notation: T tokens, H hidden, E experts, K top-k, F expert FFN width,
// R permuted rows, G groups (= local experts), P ranks on a grid axis.
// Operand types are ranked tensors or memrefs here (Moe_Shaped) and checked
// in C++, one verifier per op for both forms, so that every diagnostic names
// the operand and the numbers involved.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_OPS_TD
#define MOE_OPS_TD

include "MoeDialect/Dialect/MoeDialect.td"
include "MoeDialect/Dialect/MoeEnums.td"
include "MoeDialect/Dialect/MoeInterfaces.td"
include "MoeDialect/Dialect/MoeOpAttributes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Moe_CommunicationResource
    : Resource<"::mlir::moe::CommunicationResource">;

//===----------------------------------------------------------------------===//
// Destination-passing style
//===----------------------------------------------------------------------===//

// An operand of a moe op: a ranked tensor, or a memref once bufferized.
def Moe_Shaped : AnyTypeOf<[AnyRankedTensor, AnyMemRef],
                           "ranked tensor or memref", "::mlir::ShapedType">;

// A moe op's operands are all tensors or all memrefs; it has as many
// destinations as results (kNumDestinations, plus up to
// kNumOptionalDestinations), and on tensors each result has the type of its
// destination while on memrefs there are no results.
def Moe_DestinationsMatchResults : NativeOpTrait<"DestinationsMatchResults"> {
  let cppNamespace = "::mlir::moe";
}

// A moe op in destination-passing style, as the linalg ops are: its last
// operands, `outs`, are the destinations of its results, one per result in
// the order of `resultNames` (CamelCase, for the accessors). On tensors the
// op has one result per destination, of the destination's type, and
// bufferizes in place into it; on memrefs it has no results and writes
// every element of each destination buffer. Each name N gets `getN()`, the
// tensor result, and `getNInit()`, the destination (tensor or memref).
// Destinations are write-only unless `initReadCondition` (C++ on the
// `::mlir::OpOperand &init`) says the op reads one before it writes it.
class Moe_DpsOp<string mnemonic, list<string> resultNames,
                list<Trait> traits = []>
    : Moe_Op<mnemonic, !listconcat([Moe_DestinationsMatchResults,
        DestinationStyleOpInterface, InferTypeOpAdaptor,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<ConditionallySpeculatable>,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>],
        traits)> {
  let results = (outs Variadic<AnyRankedTensor>:$results);
  code initReadCondition = "return false;";
  code extraDeclaration = "";
  // Effects besides reading the inputs and writing the destination buffers.
  code extraEffects = "";
  // Tensor-form ops can be speculated; an op that communicates cannot.
  code speculatability = [{
    return hasPureTensorSemantics() ? ::mlir::Speculation::Speculatable
                                    : ::mlir::Speculation::NotSpeculatable;
  }];
  // Results (and destinations) that only some instances have, after the
  // others.
  list<string> optionalResultNames = [];
  let extraClassDeclaration = !interleave(
      !foreach(i, !range(resultNames),
               "::mlir::TypedValue<::mlir::RankedTensorType> get" #
               resultNames[i] # "() {\n" #
               "  return ::llvm::cast<::mlir::TypedValue<" #
               "::mlir::RankedTensorType>>(getResult(" # i # "));\n}\n" #
               "::mlir::TypedValue<::mlir::ShapedType> get" # resultNames[i] #
               "Init() {\n" #
               "  return ::llvm::cast<::mlir::TypedValue<::mlir::ShapedType>>(" #
               "getOuts()[" # i # "]);\n}"), "\n") # [{
    /// The destinations every instance has, and how many more it may have.
    static constexpr unsigned kNumDestinations = }] # !size(resultNames) # [{;
    static constexpr unsigned kNumOptionalDestinations = }] #
        !size(optionalResultNames) # [{;
    /// The results' names, CamelCase (printed in snake_case).
    static constexpr ::llvm::StringLiteral kResultNames[] = {}] #
        !interleave(!foreach(name, !listconcat(resultNames,
                                               optionalResultNames),
                             "\"" # name # "\""), ", ") # [{};
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutsMutable();
    }
    /// Whether the op reads `init` before writing it.
    bool isDpsInitRead(::mlir::OpOperand &init) {
      (void)init;
      }] # initReadCondition # [{
    }
  }] # extraDeclaration;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return ::mlir::moe::inferDestinationTypes(adaptor.getOuts(), inferred);
    }
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::SideEffects::EffectInstance<
            ::mlir::MemoryEffects::Effect>> &effects) {
      ::mlir::moe::getDestinationStyleEffects(*this, effects);
      }] # extraEffects # [{
    }
    ::mlir::Speculation::Speculatability $cppClass::getSpeculatability() {
      }] # speculatability # [{
    }
    void $cppClass::getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      ::mlir::moe::setResultNames(getOperation(), kResultNames, setNameFn);
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Router
//===----------------------------------------------------------------------===//

def Moe_GateOp : Moe_DpsOp<"gate", ["Logits"], [Moe_ParallelScheduleOpInterface]> {
  let summary = "dense router projection: logits = x · w in f32";
  let description = [{
    `logits[t, e] = Σ_h x[t, h] · w[h, e]`, accumulated and returned in f32.
    `x` is `[T, H]` and `w` is `[H, E]`, each bf16, f16 or f32.

    ```mlir
    %init = tensor.empty() : tensor<64x8xf32>
    %logits = moe.gate %x, %w outs(%init)
        : tensor<64x32xbf16>, tensor<32x8xf32> -> tensor<64x8xf32>
    ```
  }];
  let arguments = (ins Moe_Shaped:$x, Moe_Shaped:$weight,
                       Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    $x `,` $weight `outs` `(` $outs `)` attr-dict
    `:` type($x) `,` type($weight) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$weight)>
  ];
}

def Moe_RouteOp : Moe_DpsOp<"route", ["Scores"], [Moe_ParallelScheduleOpInterface]> {
  let summary = "router score function";
  let description = [{
    Maps router logits `[T, E]` (f32) to scores of the same type:
    - `softmax`: softmax over E per token;
    - `sigmoid`: elementwise 1 / (1 + e^-x);
    - `sqrtsoftplus`: √softplus(x), with softplus(x) = x for x > 20 and
      log1p(eˣ) otherwise;
    - `identity`: the logits unchanged (post-softmax routing applies the
      softmax after `moe.topk`).

    ```mlir
    %scores = moe.route sigmoid %logits outs(%init)
        : tensor<64x8xf32> -> tensor<64x8xf32>
    ```
  }];
  let arguments = !con((ins Moe_Shaped:$logits), Moe_RouteAttrs,
                       (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    custom<EnumKeyword>($score_function) $logits `outs` `(` $outs `)`
    attr-dict `:` type($logits) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$logits,
                   "::mlir::moe::ScoreFunctionAttr":$score_function)>
  ];
}

def Moe_TopKOp : Moe_DpsOp<"topk", ["Weights", "Indices"],
    [AttrSizedOperandSegments, Moe_ParallelScheduleOpInterface]> {
  let summary = "expert selection with expert bias and group-limited routing";
  let description = [{
    Selects `k` experts per token from `scores` `[T, E]` (f32).

    The selection score is `s = scores + bias` (the optional `bias` `[E]`
    only steers selection and is allowed only when `score_function` is
    `sigmoid` or `sqrtsoftplus`). `score_function` names the function that
    produced `scores`; when `scores` comes from `moe.route` the two must
    agree.

    With `num_groups` G_n > 1 the E experts are split into G_n equal
    contiguous groups. A group's score is, by `group_score`, the sum of its
    `group_score_topq` best selection scores (`top_sum`; default q = k /
    group_topk, the TransformerEngine/Megatron rule; DeepSeek-V3 uses q = 2)
    or its maximum (`max`). The `group_topk` best groups stay; the others are
    masked to -inf. Then the top k of what remains are chosen. Ties go to
    the lower index; results are ordered by descending selection score.

    `weights` are the unbiased scores of the chosen experts, normalized by
    `normalize`: `none`; `sum` (w / (Σw + 1e-20), a no-op when k = 1);
    `softmax` (softmax over the k chosen: post-softmax routing). Finally they
    are multiplied by `scaling_factor`. `indices` are i32 and carry no
    gradient.

    Gradients (`moe-generate-vjp`): flow from `weights` through the
    normalization and scaling to the chosen entries of `scores`; the expert
    `bias` gets NO gradient, since it only steers selection (it is updated by
    `moe.expert_bias_update` instead).

    ```mlir
    %w, %i = moe.topk sigmoid %scores bias %b k 4 outs(%w0, %i0)
        {num_groups = 4 : i64, group_topk = 2 : i64,
         normalize = #moe<normalize sum>}
        : tensor<64x8xf32>, tensor<8xf32> -> tensor<64x4xf32>, tensor<64x4xi32>
    ```
  }];
  let arguments = !con(
    (ins Moe_Shaped:$scores, Optional<Moe_Shaped>:$bias),
    Moe_TopKAttrs, (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    custom<EnumKeyword>($score_function) $scores (`bias` $bias^)? `k` $k
    `outs` `(` $outs `)` attr-dict
    `:` type($scores) (`,` type($bias)^)? `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$scores, "::mlir::Value":$bias,
                   "::mlir::IntegerAttr":$k,
                   "::mlir::moe::ScoreFunctionAttr":$score_function,
                   "::mlir::IntegerAttr":$num_groups,
                   "::mlir::IntegerAttr":$group_topk,
                   "::mlir::moe::GroupScoreAttr":$group_score,
                   "::mlir::IntegerAttr":$group_score_topq,
                   "::mlir::moe::NormalizeAttr":$normalize,
                   "::mlir::FloatAttr":$scaling_factor)>
  ];
  let extraDeclaration = [{
    /// q of the `top_sum` group score: the attribute, else k / group_topk.
    int64_t getEffectiveGroupScoreTopQ();
  }];
}

//===----------------------------------------------------------------------===//
// Balancing losses
//===----------------------------------------------------------------------===//

def Moe_AuxLossOp : Moe_DpsOp<"aux_loss", ["Loss"],
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     DeclareOpInterfaceMethods<Moe_ParallelScheduleOpInterface, ["hasParallelSchedule"]>]> {
  let summary = "load-balancing auxiliary loss";
  let description = [{
    With c_e the number of (t, k) routed to expert e (from `indices`
    `[T, K]`), the loss is

      loss = E · coeff / (K · T²) · Σ_e (Σ_t p[t, e]) · c_e

    where `p` are the dense scores of every expert: `scores` `[T, E]` as
    they are for `softmax`, and normalized per token by their sum + 1e-20
    for `sigmoid` and `sqrtsoftplus` (`score_function` says which).
    Variants: `batch` (switch-transformer style, over all T tokens);
    `sequence` (the same per sequence of `seq_length` tokens, averaged over
    sequences); `global`, for a layer whose tokens are spread over the
    ranks of the `grid_axes` of `grid`: the result is this rank's share

      loss = E · coeff / (K · T_g²) · Σ_e (Σ_{local t} p[t, e]) · c^g_e

    with c^g the counts summed over the ranks of the axes and
    T_g = T · (ranks on the axes). The shares of all ranks sum to the
    `batch` loss of the whole batch; on one rank the share is the `batch`
    loss. Counts carry no gradient (the adjoint of `global` uses c^g too).
    The result is a 0-d f32 tensor.

    ```mlir
    %l = moe.aux_loss batch %scores, %indices from softmax coeff 1.000000e-02
        outs(%init) : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
    ```
  }];
  let arguments = !con((ins Moe_Shaped:$scores, Moe_Shaped:$indices),
                       Moe_AuxLossAttrs, (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    custom<EnumKeyword>($variant) $scores `,` $indices `from` custom<EnumKeyword>($score_function) `coeff` $coeff
    `outs` `(` $outs `)` attr-dict
    `:` type($scores) `,` type($indices) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$scores, "::mlir::Value":$indices,
                   "::mlir::moe::AuxLossVariantAttr":$variant,
                   "::mlir::moe::ScoreFunctionAttr":$score_function,
                   "::mlir::FloatAttr":$coeff,
                   "::mlir::IntegerAttr":$seq_length,
                   "::mlir::FlatSymbolRefAttr":$grid,
                   "::mlir::DenseI64ArrayAttr":$grid_axes)>
  ];
}

def Moe_ZLossOp : Moe_DpsOp<"z_loss", ["Loss"], [Moe_ParallelScheduleOpInterface]> {
  let summary = "router z-loss";
  let description = [{
    `loss = coeff · mean_t(logsumexp_e(logits[t, e])²)` over logits `[T, E]`
    (f32); the result is a 0-d f32 tensor.

    ```mlir
    %z = moe.z_loss %logits coeff 1.000000e-03 outs(%init)
        : tensor<64x8xf32> -> tensor<f32>
    ```
  }];
  let arguments = !con((ins Moe_Shaped:$logits), Moe_ZLossAttrs,
                       (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    $logits `coeff` $coeff `outs` `(` $outs `)` attr-dict
    `:` type($logits) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$logits, "::mlir::FloatAttr":$coeff)>
  ];
}

def Moe_ExpertBiasUpdateOp : Moe_DpsOp<"expert_bias_update", ["UpdatedBias"]> {
  let summary = "aux-loss-free balancing step on the expert bias";
  let description = [{
    `bias' = bias + rate · sign(mean(counts) − counts)` for `bias` `[E]`
    (f32) and `counts` `[E]` (i32, i64 or f32; the tokens each expert
    received, summed over ranks by the caller). Not differentiated.

    ```mlir
    %nb = moe.expert_bias_update %bias, %counts rate 1.000000e-03 outs(%init)
        : tensor<8xf32>, tensor<8xi32> -> tensor<8xf32>
    ```
  }];
  let arguments = !con((ins Moe_Shaped:$bias, Moe_Shaped:$counts),
                       Moe_BiasUpdateAttrs, (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    $bias `,` $counts `rate` $rate `outs` `(` $outs `)` attr-dict
    `:` type($bias) `,` type($counts) `->` type($outs)
  }];
}

//===----------------------------------------------------------------------===//
// Dispatch, expert compute, combine
//===----------------------------------------------------------------------===//

def Moe_PermuteOp : Moe_DpsOp<"permute", ["Permuted", "GroupSizes", "Rows"],
    [Moe_ParallelScheduleOpInterface]> {
  let summary = "dispatch tokens into rows grouped by expert";
  let description = [{
    Copies each (t, k) pair's token row `x[t]` (`x` `[T, H]`) to a row of
    `permuted` `[R, H]`, sorted by expert ascending (`indices` `[T, K]`,
    i32, values in [0, num_experts)) and stable in (t, k). `group_sizes`
    `[E]` (i32) holds each expert's row count. With `align` A > 1 each
    group's size is rounded up to a multiple of A and its padding rows are
    zero. R = T·K + E·(A − 1) is the static upper bound; rows past the last
    group are zero. A static R may be larger than the bound (more zero rows
    past the last group), e.g. rounded up to a multiple of A so that blocks
    of A rows tile `permuted`. `rows[t, k]` (i32) is the row where (t, k)
    landed. Row offsets are computed in 64-bit.

    ```mlir
    %xs, %sizes, %rows = moe.permute %x, %indices experts 8 align 16
        outs(%xs0, %sizes0, %rows0) : tensor<64x32xbf16>, tensor<64x2xi32>
        -> tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
    ```
  }];
  let arguments = !con((ins Moe_Shaped:$x, Moe_Shaped:$indices),
                       Moe_PermuteAttrs, (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    $x `,` $indices `experts` $num_experts `align` $align
    `outs` `(` $outs `)` attr-dict
    `:` type($x) `,` type($indices) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$indices,
                   "::mlir::IntegerAttr":$num_experts,
                   "::mlir::IntegerAttr":$align,
                   CArg<"int64_t", "0">:$rows)>
  ];
}

def Moe_PermuteRowsOp : Moe_DpsOp<"permute_rows", ["Permuted"],
    [Moe_ParallelScheduleOpInterface]> {
  let summary = "move rows of token data to the rows a moe.permute chose";
  let description = [{
    `permuted[rows[t, k]] = x[t]` for each pair (t, k) whose row is in
    [0, R), for `x` `[T, C]` (bf16, f16, f32 or FP8), `rows` `[T, K]` (i32,
    the `rows` result of a `moe.permute`) and `permuted` `[R, C]` with
    `x`'s element type (R comes from the destination); every other row of
    `permuted` (padding, rows past the groups) is zero. The rows of
    distinct pairs must be distinct, as moe.permute's are (otherwise which
    pair's row lands there is unspecified). It moves data that travels with
    the tokens a `moe.permute` already dispatched (the 1×128 scales of
    token rows quantized before the permute) without counting the experts
    again. The adjoint is a `moe.combine` with unit weights.

    ```mlir
    %s = moe.permute_rows %scale, %rows outs(%s0)
        : tensor<64x2xf32>, tensor<64x2xi32> -> tensor<248x2xf32>
    ```
  }];
  let arguments = (ins Moe_Shaped:$x, Moe_Shaped:$rows,
                       Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    $x `,` $rows `outs` `(` $outs `)` attr-dict
    `:` type($x) `,` type($rows) `->` type($outs)
  }];
  let builders = [
    // `numRows`: R, the row count of the result.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$rows,
                   "::mlir::OpFoldResult":$numRows)>
  ];
}

def Moe_GroupedMatmulOp : Moe_DpsOp<"grouped_matmul", ["C"],
    [AttrSizedOperandSegments]> {
  let summary = "per-group matmul over ragged row blocks";
  let description = [{
    `a` is `[R, Kd]`; `b` is `[G, Kd, N]` (`weight_layout = kn`) or
    `[G, N, Kd]` (`nk`); `group_sizes` is `[G]` (i32). Group g covers rows
    [off_g, off_g + group_sizes[g]) of `a` and `c`, with off the exclusive
    prefix sum; `c[r] = a[r] · b[g]` (or `b[g]ᵀ`) accumulated in f32. Rows
    past Σ group_sizes are zero. Empty groups are normal. `c` is bf16, f16 or
    f32: its destination says which.

    FP8: when `a` and `b` are f8E4M3FN/f8E5M2 the operands `a_scale` and
    `b_scale` (f32) are required: a 0-d tensor (tensor-wise scaling) or the
    block scales of `moe.quantize` (`a_scale` `[R, ⌈Kd/128⌉]`, `b_scale`
    `[G, ⌈Kd/128⌉, ⌈N/128⌉]` for `kn`, `[G, ⌈N/128⌉, ⌈Kd/128⌉]` for `nk`);
    the product is computed on the dequantized values.

    Epilogue (a fusion hook): an optional region maps the f32 accumulators of
    each output element to its value, which is then rounded to `c`'s element
    type. Its arguments are, in order: the accumulator of column j; with
    `b`'s N twice `c`'s N (a concatenated gate|up weight), the accumulators
    of columns j and N_c + j (the "gate" and "up" halves); with
    `up_weight` (`b_up`, of b's type; gate and up stored as two weights, as
    the example layers keep them), the accumulators of column j of
    a · b[g] and of a · b_up[g]: the product with the two weights
    concatenated along N, the concatenation never stored; then, with
    `row_scale` ([R], f32), that row's element; then, for each of the
    `epilogue_inputs` (tensors [R, N_c] of bf16, f16 or f32, N_c being c's
    N), its element (r, j) as f32. It yields one f32 per output through
    `moe.yield`: c's, then those of up to two more destinations `c1`, `c2`
    ([R, N_c], bf16, f16 or f32), which only an epilogue writes (an
    activation's adjoint: d_gate, d_up and the recomputed activation from
    the gate and up inputs and the product). Its ops must be free of side
    effects. It applies to every row, including the rows past
    Σ group_sizes, whose accumulators are zero. Generated GPU kernels apply
    it to the accumulator registers, or, in pingpong kernels with epilogue
    inputs or extra destinations, to the product staged as bf16 for the
    output's store (so rounded to bf16 first); elsewhere the product goes
    through an f32 buffer first.

    Accumulate (a fusion hook, unit attribute `accumulate`): `c` is its
    destination plus the product, `c[r] = c_init[r] + a[r] · b[g]`, added in
    f32 and rounded once; the destination is read, and rows past
    Σ group_sizes keep its values. It replaces the sum of two products of
    the same rows (the two halves of a gated FFN's input gradient) without a
    separate add. It excludes the epilogue.

    ```mlir
    %h = moe.grouped_matmul %xs, %w, %sizes outs(%init)
        : tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32>
        -> tensor<144x48xbf16>
    // gate and up as one GEMM on [G, Kd, 2F] with SiLU(gate) · up fused:
    %h2 = moe.grouped_matmul %xs, %w13, %sizes outs(%init2) epilogue {
      ^bb0(%gate: f32, %up: f32):
        %e = math.exp %gate : f32   // ... silu(gate) · up
        ...
        moe.yield %v : f32
      } : tensor<144x32xbf16>, tensor<8x32x96xbf16>, tensor<8xi32>
        -> tensor<144x48xbf16>
    ```
  }];
  let arguments = !con((ins
    Moe_Shaped:$a, Moe_Shaped:$b, Optional<Moe_Shaped>:$b_up,
    Moe_Shaped:$group_sizes,
    Optional<Moe_Shaped>:$a_scale, Optional<Moe_Shaped>:$b_scale,
    Optional<Moe_Shaped>:$row_scale, Variadic<Moe_Shaped>:$epilogue_inputs),
    Moe_WeightLayoutAttrs, (ins UnitAttr:$accumulate),
    (ins Variadic<Moe_Shaped>:$outs));
  let regions = (region AnyRegion:$epilogue);
  let optionalResultNames = ["C1", "C2"];
  let initReadCondition = "return getAccumulate() && &init == &getOutsMutable()[0];";
  let assemblyFormat = [{
    $a `,` $b `,` $group_sizes (`scales` `(` $a_scale^ `,` $b_scale `)`)?
    (`up_weight` `(` $b_up^ `:` type($b_up) `)`)?
    (`row_scale` `(` $row_scale^ `:` type($row_scale) `)`)?
    (`epilogue_inputs` `(` $epilogue_inputs^ `:` type($epilogue_inputs) `)`)?
    `outs` `(` $outs `)` (`epilogue` $epilogue^)? attr-dict
    `:` type($a) `,` type($b) `,` type($group_sizes)
    (`,` type($a_scale)^ `,` type($b_scale))? `->` type($outs)
  }];
  let extraDeclaration = [{
    /// The epilogue's block, or null when the op has none.
    ::mlir::Block *getEpilogueBlock() {
      return getEpilogue().empty() ? nullptr : &getEpilogue().front();
    }
    /// Whether `op` may stand in an epilogue region: a side-effect-free
    /// scalar op without regions (the verifier's rule; moe-fuse moves
    /// bodies that pass it into epilogues).
    static bool isEpilogueOp(::mlir::Operation &op);
    /// Accumulators the epilogue takes per output element: 1, or 2 for
    /// gate|up halves (a concatenated weight, b's N twice c's N, or a
    /// `b_up` weight beside `b`).
    unsigned getAccumulatorsPerOutput();
    /// Whether the operands are FP8 with block scales (not 0-d, tensor-wise
    /// ones).
    bool hasBlockScales() {
      ::mlir::Value aScale = getAScale();
      return aScale &&
             ::llvm::cast<::mlir::ShapedType>(aScale.getType()).getRank() != 0;
    }
    /// On buffers with `up_weight`: a new buffer holding b and b_up
    /// concatenated along N ([G, Kd, 2N] or [G, 2N, Kd]), the one weight of
    /// gate|up halves, filled at `builder` for lowerings that read the halves
    /// from one weight (the CPU loops, cuBLASLt); the caller frees it.
    ::mlir::Value concatenateUpWeight(::mlir::OpBuilder &builder);
    /// Clones the epilogue's ops at `b` with its arguments bound to
    /// `arguments` (calling `onClone` on each clone); returns the values it
    /// yields, one per destination.
    ::llvm::SmallVector<::mlir::Value, 3>
    cloneEpilogueAt(::mlir::OpBuilder &b, ::mlir::ValueRange arguments,
                    ::llvm::function_ref<void(::mlir::Operation *)> onClone =
                        nullptr);
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$c, "::mlir::Value":$a,
                   "::mlir::Value":$b, "::mlir::Value":$group_sizes,
                   "::mlir::Value":$a_scale, "::mlir::Value":$b_scale,
                   "::mlir::moe::WeightLayoutAttr":$weight_layout)>
  ];
}

def Moe_YieldOp : Moe_Op<"yield", [Pure, Terminator,
                                   HasParent<"GroupedMatmulOp">]> {
  let summary = "the values of an epilogue region";
  let description = [{
    Ends a `moe.grouped_matmul` epilogue with the output element's f32
    value, one per destination of the op (c, then c1 and c2).
  }];
  let arguments = (ins Variadic<F32>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

def Moe_GroupedWeightGradOp : Moe_DpsOp<"grouped_weight_grad", ["Db"],
    [AttrSizedOperandSegments]> {
  let summary = "per-group aᵀ · dc: the weight gradient of grouped_matmul";
  let description = [{
    For `a` `[R, Kd]`, `dc` `[R, N]` and `group_sizes` `[G]` (i32),
    `db[g] = a[rows of g]ᵀ · dc[rows of g]`, shaped `[G, Kd, N]`
    (`weight_layout = kn`) or `[G, N, Kd]` (`nk`, transposed), accumulated
    in f32. An empty group's gradient is exactly zero.

    With the unit attribute `transposed_operands`, `a` is `[Kd, R]` and `dc`
    `[N, R]`: the R rows (tokens) are the contiguous dimension, as
    columnwise quantization writes them, and `db[g] = a[:, rows of g] ·
    dc[:, rows of g]ᵀ`.

    FP8: f8E4M3FN/f8E5M2 operands need `transposed_operands` and the f32
    operands `a_scale` and `dc_scale`: 0-d tensors (tensor-wise scaling) or
    the scales of `moe.quantize block_1x128` of the transposed operands
    (`a_scale` `[Kd, ⌈R/128⌉]`, `dc_scale` `[N, ⌈R/128⌉]`: blocks of 128
    consecutive rows, counted from row 0 whatever the groups). The product
    is computed on the dequantized values.

    ```mlir
    %dw = moe.grouped_weight_grad %xs, %dh, %sizes outs(%init)
        : tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32>
        -> tensor<8x32x48xf32>
    %dw8 = moe.grouped_weight_grad %xt, %dht, %sizes scales(%xs_s, %dh_s)
        outs(%init) {transposed_operands}
        : tensor<32x256xf8E4M3FN>, tensor<48x256xf8E5M2>, tensor<8xi32>,
          tensor<32x2xf32>, tensor<48x2xf32> -> tensor<8x32x48xbf16>
    ```
  }];
  let arguments = !con((ins
    Moe_Shaped:$a, Moe_Shaped:$dc, Moe_Shaped:$group_sizes,
    Optional<Moe_Shaped>:$a_scale, Optional<Moe_Shaped>:$dc_scale),
    Moe_WeightLayoutAttrs, (ins UnitAttr:$transposed_operands),
    (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    $a `,` $dc `,` $group_sizes (`scales` `(` $a_scale^ `,` $dc_scale `)`)?
    `outs` `(` $outs `)` attr-dict
    `:` type($a) `,` type($dc) `,` type($group_sizes)
    (`,` type($a_scale)^ `,` type($dc_scale))? `->` type($outs)
  }];
  let builders = [
    // Destinations from the operands' sizes; the scales and
    // transposed_operands as the op states them.
    OpBuilder<(ins "::mlir::Type":$db, "::mlir::Value":$a,
                   "::mlir::Value":$dc, "::mlir::Value":$group_sizes,
                   "::mlir::moe::WeightLayoutAttr":$weight_layout,
                   CArg<"::mlir::Value", "{}">:$a_scale,
                   CArg<"::mlir::Value", "{}">:$dc_scale,
                   CArg<"bool", "false">:$transposed_operands)>
  ];
}

def Moe_GluOp : Moe_DpsOp<"glu", ["H"],
    [AttrSizedOperandSegments, Moe_ParallelScheduleOpInterface]> {
  let summary = "gated linear unit: act(gate) · up";
  let description = [{
    `h = act(gate) · up` elementwise, computed in f32, for `gate` and `up`
    `[R, F]`; or, with one operand `[R, 2F]`, `gate` is its first F columns
    and `up` the last F. Activations: `silu` (x·σ(x)), `gelu` (exact, erf),
    `gelu_tanh` (tanh approximation), `relu`, `relu2` (relu(x)²),
    `identity` (bilinear).

    ```mlir
    %h = moe.glu silu %g, %u outs(%init)
        : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
    %h2 = moe.glu silu %gu outs(%init) : tensor<144x96xbf16> -> tensor<144x48xbf16>
    ```
  }];
  let arguments = !con(Moe_GluAttrs,
                       (ins Moe_Shaped:$gate, Optional<Moe_Shaped>:$up,
                            Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    custom<EnumKeyword>($activation) $gate (`,` $up^)? `outs` `(` $outs `)`
    attr-dict `:` type($gate) (`,` type($up)^)? `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::moe::ActivationAttr":$activation,
                   "::mlir::Value":$gate, "::mlir::Value":$up)>
  ];
}

def Moe_AllToAllOp : Moe_DpsOp<"all_to_all", ["Output", "RecvSizes"], [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "ragged exchange of row blocks over one axis of a shard.grid";
  let description = [{
    On the `grid_axis` axis of the `shard.grid` named by `grid` (P ranks),
    rank p's `input` rows `[R, H]` are cut into P·C chunks, C ≥ 1 chunks
    per destination: `send_sizes` `[P·C]` (i32) holds their row counts.
    Destination q gets chunks q·C .. q·C+C−1; the chunks are contiguous and
    in order from row 0 of `input`, the destinations following each other
    in rank order. Received chunks are stored from row 0 of `output`
    `[R', H]` in source-rank order, each source's chunks in order; the rest
    of `output` is zero. `recv_sizes` `[P·C]` (i32): `recv_sizes[p·C + j]`
    is the number of rows of chunk j received from source p. C = 1 is one
    block per rank. The op exchanges the counts itself. On a one-rank axis
    it is the identity (and folds away when the types agree): rank 0 sends
    its chunks to itself, and the rows past them are zero in a well-formed
    graph (`moe.permute` zeroes the rows past its last group), so output =
    input. It communicates, so it is not speculatable and has effects on
    tensors too: collectives keep their order.

    ```mlir
    shard.grid @ep(shape = 4)
    %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%y0, %recv0)
        : tensor<512x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<8xi32>
    ```
  }];
  let arguments = !con((ins Moe_Shaped:$input, Moe_Shaped:$send_sizes),
                       Moe_AllToAllAttrs, (ins Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    $input `,` $send_sizes `on` $grid `axis` $grid_axis `outs` `(` $outs `)`
    attr-dict `:` type($input) `,` type($send_sizes) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$input,
                   "::mlir::Value":$send_sizes,
                   "::mlir::FlatSymbolRefAttr":$grid,
                   "::mlir::IntegerAttr":$grid_axis)>
  ];
  let extraEffects = [{
    effects.emplace_back(::mlir::MemoryEffects::Read::get(),
                         ::mlir::moe::CommunicationResource::get());
    effects.emplace_back(::mlir::MemoryEffects::Write::get(),
                         ::mlir::moe::CommunicationResource::get());
  }];
  let speculatability = "return ::mlir::Speculation::NotSpeculatable;";
  let hasFolder = 1;
}

def Moe_SortChunksOp : Moe_DpsOp<"sort_chunks", ["Output", "Sizes"],
    [Moe_ParallelScheduleOpInterface]> {
  let summary = "reorder row chunks between (p, c)-major and (c, p)-major";
  let description = [{
    `counts` `[N]` (i32, N = P·C) holds the row counts of the chunks
    (p, c), p-major: chunk (p, c) has `counts[p·C + c]` rows. Without
    `inverse`, `x` `[R, H]` holds the chunks in (p, c) row-major order from
    row 0, and `output` (`[R, H]`, `x`'s element type) holds the same
    chunks in (c, p) order from row 0; `sizes` has length C and
    `sizes[c] = Σ_p counts[p·C + c]`. With `inverse`, `x` holds them in
    (c, p) order, `output` in (p, c) order, and `sizes` has length P:
    `sizes[p] = Σ_c counts[p·C + c]`. So P or C is `sizes`' length and
    the other is N divided by it. Rows of `output` past Σ counts are zero;
    row offsets are computed in 64-bit. After a chunked `moe.all_to_all`
    (chunks from source p for local expert c) it makes each local expert's
    rows contiguous; `inverse` undoes it. `counts` and `sizes` carry no
    gradient.

    ```mlir
    %xl, %lsz = moe.sort_chunks %y, %recv outs(%xl0, %lsz0)
        : tensor<1024x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<2xi32>
    %yb, %psz = moe.sort_chunks inverse %yl, %recv outs(%yb0, %psz0)
        : tensor<1024x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<4xi32>
    ```
  }];
  let arguments = (ins Moe_Shaped:$x, Moe_Shaped:$counts, UnitAttr:$inverse,
                       Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    (`inverse` $inverse^)? $x `,` $counts `outs` `(` $outs `)` attr-dict
    `:` type($x) `,` type($counts) `->` type($outs)
  }];
  let builders = [
    // `numSizes` is C (forward) or P (inverse): the length of `sizes`.
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Value":$counts,
                   "int64_t":$numSizes, "bool":$inverse)>
  ];
}

def Moe_AllReduceOp : Moe_DpsOp<"all_reduce", ["Output"], [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "element-wise sum over the ranks of shard.grid axes";
  let description = [{
    `output` = the element-wise sum of `input` over the ranks of the
    `grid_axes` of the `shard.grid` named by `grid`; every rank of the axes
    gets the same sum. Any shape (0-d included) of f32, f64, i32 or i64;
    `output` has `input`'s type. On one rank it is the identity (and folds
    away on tensors). The adjoint is the identity: the result is replicated
    over the axes and so is its cotangent. It communicates, so it is not
    speculatable and has effects on tensors too: collectives keep their
    order.

    ```mlir
    shard.grid @ep(shape = 4)
    %s = moe.all_reduce %loss on @ep axes [0] outs(%s0)
        : tensor<f32> -> tensor<f32>
    ```
  }];
  let arguments = (ins Moe_Shaped:$input, FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$grid_axes,
                       Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    $input `on` $grid `axes` $grid_axes `outs` `(` $outs `)` attr-dict
    `:` type($input) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::FlatSymbolRefAttr":$grid,
                   "::llvm::ArrayRef<int64_t>":$gridAxes)>
  ];
  let extraEffects = [{
    effects.emplace_back(::mlir::MemoryEffects::Read::get(),
                         ::mlir::moe::CommunicationResource::get());
    effects.emplace_back(::mlir::MemoryEffects::Write::get(),
                         ::mlir::moe::CommunicationResource::get());
  }];
  let speculatability = "return ::mlir::Speculation::NotSpeculatable;";
  let hasFolder = 1;
}

def Moe_CombineOp : Moe_DpsOp<"combine", ["Out"], [Moe_ParallelScheduleOpInterface]> {
  let summary = "weighted gather-sum of expert outputs back to tokens";
  let description = [{
    `out[t] = Σ_k weights[t, k] · y[rows[t, k]]`, accumulated in f32, for
    `y` `[R, H]`, `rows` `[T, K]` (i32, as produced by `moe.permute`) and
    `weights` `[T, K]` (f32). `out` is `[T, H]` with `y`'s element type.

    ```mlir
    %out = moe.combine %y, %rows, %weights outs(%init)
        : tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>
        -> tensor<64x32xbf16>
    ```
  }];
  let arguments = (ins Moe_Shaped:$y, Moe_Shaped:$rows, Moe_Shaped:$weights,
                       Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    $y `,` $rows `,` $weights `outs` `(` $outs `)` attr-dict
    `:` type($y) `,` type($rows) `,` type($weights) `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$y, "::mlir::Value":$rows,
                   "::mlir::Value":$weights)>
  ];
}

def Moe_CombineGradOp : Moe_DpsOp<"combine_grad", ["Dy", "Dweights"],
    [Moe_ParallelScheduleOpInterface]> {
  let summary = "the adjoint of moe.combine: gradients of y and weights";
  let description = [{
    The vector-Jacobian product of `out = moe.combine(y, rows, weights)`.
    For `dout` `[T, H]` (bf16, f16 or f32: the cotangent of `out`), `y`
    `[R, H]` (`moe.combine`'s `y`, with `dout`'s element type), `rows`
    `[T, K]` (i32) and `weights` `[T, K]` (f32):

      dy[r, h]       = Σ_{(t, k) : rows[t, k] = r} weights[t, k] · dout[t, h]
      dweights[t, k] = Σ_h dout[t, h] · y[rows[t, k], h]

    `dy` is `[R, H]` with `y`'s element type, accumulated in f32 over
    (t, k) in row-major order and rounded once; a row that no (t, k) maps
    to is zero. `dweights` is `[T, K]` f32, accumulated over h in order
    (the reference lowering; the GPU sums each pair's products per warp
    lane and then across lanes, deterministically but in another order:
    its `dweights` differ from the reference's by rounding and, where a
    running sum overflows in one order and not the other, by an infinity
    against a finite value). As in `moe.combine`, a pair whose row is outside [0, R) (a pair that
    `moe.permute` dropped: -1) contributes nothing to `dy` and gets
    `dweights` 0. `rows` carries no gradient.

    ```mlir
    %dy, %dw = moe.combine_grad %dout, %y, %rows, %weights outs(%dy0, %dw0)
        : tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>,
          tensor<64x2xf32> -> tensor<144x32xbf16>, tensor<64x2xf32>
    ```
  }];
  let arguments = (ins Moe_Shaped:$dout, Moe_Shaped:$y, Moe_Shaped:$rows,
                       Moe_Shaped:$weights, Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    $dout `,` $y `,` $rows `,` $weights `outs` `(` $outs `)` attr-dict
    `:` type($dout) `,` type($y) `,` type($rows) `,` type($weights)
    `->` type($outs)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$dout, "::mlir::Value":$y,
                   "::mlir::Value":$rows, "::mlir::Value":$weights)>
  ];
}

//===----------------------------------------------------------------------===//
// FP8
//===----------------------------------------------------------------------===//

def Moe_QuantizeOp : Moe_DpsOp<"quantize", ["Output", "Scale"],
    [DeclareOpInterfaceMethods<Moe_ParallelScheduleOpInterface,
                               ["hasParallelSchedule"]>]> {
  let summary = "FP8 quantization with an explicit scale";
  let description = [{
    `output = saturate(input / scale)` in f8E4M3FN or f8E5M2 (saturating
    to ±448 and ±57344), with `scale` the dequantization factor
    (`input ≈ output · scale`) computed from the amax of each scaling
    block: `scale = amax / fp8_max` (1 where amax is 0). Recipes and the
    shape of `scale` for `input` `[..., M, N]`:

    - `tensorwise`: one scale from the current amax; `scale` is 0-d f32.
    - `delayed`: the scale comes from `max(amax_history)`; the third
      destination `amax_history` `[L]` (f32) is required: it is read, then
      rolled by one with the current amax in slot 0, and the tied result
      `new_amax_history` is the rolled history; `scale` is 0-d f32.
    - `block_1x128` (activations, DeepSeek-V3): `scale` `[..., M, ⌈N/128⌉]` f32.
    - `block_128x128` (weights): `scale` `[..., ⌈M/128⌉, ⌈N/128⌉]` f32.
    - `mx_1x32` (MXFP8, Blackwell): `scale` `[..., M, ⌈N/32⌉]` of f8E8M0FNU.

    Forward operands use e4m3 and gradients e5m2 by convention; the
    destination type says which.

    Gradients are straight-through, as FP8 training does: the adjoint of
    `moe.quantize` is `dx = dq / scale` and that of `moe.dequantize` is
    `dq = dy · scale`, so a quantize/dequantize pair passes the gradient
    through (equal up to f32 rounding of `· scale / scale`); scales and amax
    histories get no gradient.

    ```mlir
    %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0)
        : tensor<144x256xbf16> -> tensor<144x256xf8E4M3FN>, tensor<144x2xf32>
    %q2, %s2, %h2 = moe.quantize delayed %x outs(%q0, %t0, %history)
        : tensor<144x256xbf16>
        -> tensor<144x256xf8E4M3FN>, tensor<f32>, tensor<16xf32>
    ```
  }];
  let arguments = !con(Moe_QuantAttrs, (ins Moe_Shaped:$input,
                       Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    custom<EnumKeyword>($recipe) $input `outs` `(` $outs `)` attr-dict
    `:` type($input) `->` type($outs)
  }];
  let optionalResultNames = ["NewAmaxHistory"];
  let initReadCondition = "return &init == getAmaxHistoryOperand();";
  let extraDeclaration = [{
    /// Delayed scaling's history destination (read, then rolled), or null.
    ::mlir::OpOperand *getAmaxHistoryOperand() {
      return getOuts().size() > 2 ? &getOutsMutable()[2] : nullptr;
    }
    ::mlir::Value getAmaxHistory() {
      ::mlir::OpOperand *history = getAmaxHistoryOperand();
      return history ? history->get() : ::mlir::Value();
    }
    /// The rolled history (tensors, delayed scaling), or null.
    ::mlir::Value getNewAmaxHistory() {
      return getNumResults() > 2 ? getResult(2) : ::mlir::Value();
    }
  }];
}

def Moe_QuantizeWithTransposeOp : Moe_DpsOp<"quantize_with_transpose",
    ["Output", "Scale", "TransposedOutput", "TransposedScale"],
    [DeclareOpInterfaceMethods<Moe_ParallelScheduleOpInterface,
                               ["hasParallelSchedule"]>]> {
  let summary = "block_1x128 quantization of a matrix and of its transpose";
  let description = [{
    For `input` `[M, N]`, the results of `moe.quantize block_1x128` on
    `input` (`output` `[M, N]`, `scale` `[M, ⌈N/128⌉]`) and on its
    transpose (`transposed_output` `[N, M]`, `transposed_scale`
    `[N, ⌈M/128⌉]`), bit for bit: one op because an FP8 backward needs a
    gradient both ways (1×128 blocks of its rows for the dgrad, 128×1 blocks
    for the wgrad), and one pass over the input makes both. Each output has
    its own FP8 type (f8E4M3FN or f8E5M2). `moe-fuse quantize-with-transpose`
    forms it from such a pair; it has no adjoint (it appears after
    `moe-fp8-placement`, which runs after the VJP).

    ```mlir
    %q, %s, %qt, %st = moe.quantize_with_transpose %dy
        outs(%q0, %s0, %qt0, %st0)
        : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<256x3xf32>,
          tensor<384x256xf8E5M2>, tensor<384x2xf32>
    ```
  }];
  let arguments = (ins Moe_Shaped:$input, Variadic<Moe_Shaped>:$outs);
  let assemblyFormat = [{
    $input `outs` `(` $outs `)` attr-dict `:` type($input) `->` type($outs)
  }];
}

def Moe_DequantizeOp : Moe_DpsOp<"dequantize", ["Output"],
    [DeclareOpInterfaceMethods<Moe_ParallelScheduleOpInterface,
                               ["hasParallelSchedule"]>]> {
  let summary = "FP8 dequantization: output = input · scale";
  let description = [{
    The inverse of `moe.quantize` for the same `recipe`: each element of
    `input` (f8E4M3FN or f8E5M2) times the scale of its block, in bf16,
    f16 or f32 (the destination's element type). `scale` has the shape
    `moe.quantize` gives for the recipe. A quantize/dequantize pair is not
    folded: it changes values.

    ```mlir
    %x2 = moe.dequantize tensorwise %q, %s outs(%init)
        : tensor<144x256xf8E4M3FN>, tensor<f32> -> tensor<144x256xbf16>
    ```
  }];
  let arguments = !con(Moe_QuantAttrs, (ins Moe_Shaped:$input,
                       Moe_Shaped:$scale, Variadic<Moe_Shaped>:$outs));
  let assemblyFormat = [{
    custom<EnumKeyword>($recipe) $input `,` $scale `outs` `(` $outs `)`
    attr-dict `:` type($input) `,` type($scale) `->` type($outs)
  }];
}

//===----------------------------------------------------------------------===//
// The whole block
//===----------------------------------------------------------------------===//

def Moe_LayerOp : Moe_Op<"layer", [Pure, InferTypeOpAdaptorWithIsCompatible,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a whole MoE block: route, dispatch, expert FFNs, combine";
  let description = [{
    `out, aux_loss = moe.layer(x, router_weight, bias?, w_gate, w_up, w_down)`
    for `x` `[T, H]`, `router_weight` `[H, E]`, optional `bias` `[E]` (f32,
    selection only, no gradient) and expert weights `w_gate`, `w_up`
    `[E, H, F]` and `w_down` `[E, F, H]` (`weight_layout = kn`; `nk`
    stores each expert's matrix transposed: `[E, F, H]`, `[E, F, H]`,
    `[E, H, F]`). Its meaning is the op graph that `moe-expand-layer`
    produces:

    ```
    logits = moe.gate(x, router_weight)
    scores = moe.route(score_function, or identity if post_softmax)(logits)
    weights, indices = moe.topk(scores, bias?; k, groups, normalize
                                (softmax if post_softmax), scaling_factor)
    xs, sizes, rows = moe.permute(x, indices; E, align)
    h = moe.glu(activation)(moe.grouped_matmul(xs, w_gate),
                            moe.grouped_matmul(xs, w_up))
    out = moe.combine(moe.grouped_matmul(h, w_down), rows, weights)
    aux_loss = moe.aux_loss(...) if aux_loss_coeff > 0
             + moe.z_loss(logits) if z_loss_coeff > 0   (0-d f32; 0 if both off)
    ```

    Gradients: `moe-generate-vjp` expands the layer first and returns
    gradients for `x`, `router_weight` and the three expert weights; the
    expert `bias` gets none (it only steers selection).

    The router attributes mean what they mean on `moe.topk` and
    `moe.aux_loss`; `post_softmax` selects on the raw logits and applies the
    softmax over the k chosen (it needs `score_function = softmax` and
    `normalize = none`).

    ```mlir
    %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd)
        {k = 2 : i64, score_function = #moe<score_function softmax>}
        : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
           tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
        -> (tensor<64x32xbf16>, tensor<f32>)
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$x,
    AnyRankedTensor:$router_weight,
    Optional<AnyRankedTensor>:$bias,
    AnyRankedTensor:$w_gate,
    AnyRankedTensor:$w_up,
    AnyRankedTensor:$w_down,
    I64Attr:$k,
    Moe_ScoreFunctionAttr:$score_function,
    UnitAttr:$post_softmax,
    DefaultValuedAttr<I64Attr, "1">:$num_groups,
    DefaultValuedAttr<I64Attr, "1">:$group_topk,
    DefaultValuedAttr<Moe_GroupScoreAttr, "::mlir::moe::GroupScore::TopSum">:$group_score,
    OptionalAttr<I64Attr>:$group_score_topq,
    DefaultValuedAttr<Moe_NormalizeAttr, "::mlir::moe::Normalize::None">:$normalize,
    DefaultValuedAttr<F64Attr, "1.0">:$scaling_factor,
    DefaultValuedAttr<Moe_ActivationAttr, "::mlir::moe::Activation::Silu">:$activation,
    DefaultValuedAttr<I64Attr, "1">:$align,
    DefaultValuedAttr<Moe_WeightLayoutAttr, "::mlir::moe::WeightLayout::KN">:$weight_layout,
    DefaultValuedAttr<F64Attr, "0.0">:$aux_loss_coeff,
    DefaultValuedAttr<Moe_AuxLossVariantAttr, "::mlir::moe::AuxLossVariant::Batch">:$aux_loss_variant,
    OptionalAttr<I64Attr>:$seq_length,
    OptionalAttr<FlatSymbolRefAttr>:$grid,
    OptionalAttr<DenseI64ArrayAttr>:$grid_axes,
    DefaultValuedAttr<F64Attr, "0.0">:$z_loss_coeff);
  let results = (outs AnyRankedTensor:$out, AnyRankedTensor:$aux_loss);
  let assemblyFormat = [{
    $x `,` $router_weight (`bias` $bias^)?
    `experts` `(` $w_gate `,` $w_up `,` $w_down `)` attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // MOE_OPS_TD
