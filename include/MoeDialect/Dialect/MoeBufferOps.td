//===- MoeBufferOps.td - moe ops on buffers ----------------*- tablegen -*-===//
//
// What one-shot-bufferize makes of the tensor-form ops: the same
// computation on memrefs, reading the input buffers and writing every
// element of the output buffers (destination-passing style, no results).
// Lowerings (convert-moe-to-loops, later the GPU backend) start here.
// Written `moe.buffer.<op>(inputs..., outputs...) {attributes} : (types)`.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_BUFFER_OPS_TD
#define MOE_BUFFER_OPS_TD

include "MoeDialect/Dialect/MoeDialect.td"
include "MoeDialect/Dialect/MoeOpAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

def Moe_BufIn : Arg<AnyMemRef, "input buffer", [MemRead]>;
def Moe_BufOut : Arg<AnyMemRef, "output buffer", [MemWrite]>;
def Moe_OptBufIn : Arg<Optional<AnyMemRef>, "optional input buffer",
                       [MemRead]>;
def Moe_OptBufInOut : Arg<Optional<AnyMemRef>,
                          "optional buffer read then updated",
                          [MemRead, MemWrite]>;

class Moe_BufferOp<string mnemonic, string tensorOp, dag ins, dag outs,
                   dag attrs, list<Trait> traits = []>
    : Moe_Op<"buffer." # mnemonic, traits> {
  let summary = "`" # tensorOp # "` on buffers";
  let description = [{
    The buffer form of `}] # tensorOp # [{`: the same semantics, reading
    the input buffers and writing every element of the output buffers
    (listed after the inputs, in the order of the tensor op's results).
    Produced by one-shot-bufferize; consumed by the lowerings.
  }];
  let arguments = !con(ins, outs, attrs);
  let assemblyFormat = [{
    `(` operands `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Moe_BufferGateOp : Moe_BufferOp<"gate", "moe.gate",
    (ins Moe_BufIn:$x, Moe_BufIn:$weight), (ins Moe_BufOut:$logits), (ins)>;

def Moe_BufferRouteOp : Moe_BufferOp<"route", "moe.route",
    (ins Moe_BufIn:$logits), (ins Moe_BufOut:$scores), Moe_RouteAttrs>;

def Moe_BufferTopKOp : Moe_BufferOp<"topk", "moe.topk",
    (ins Moe_BufIn:$scores, Moe_OptBufIn:$bias),
    (ins Moe_BufOut:$weights, Moe_BufOut:$indices), Moe_TopKAttrs>;

def Moe_BufferAuxLossOp : Moe_BufferOp<"aux_loss", "moe.aux_loss",
    (ins Moe_BufIn:$scores, Moe_BufIn:$indices), (ins Moe_BufOut:$loss),
    Moe_AuxLossAttrs, [DeclareOpInterfaceMethods<SymbolUserOpInterface>]>;

def Moe_BufferZLossOp : Moe_BufferOp<"z_loss", "moe.z_loss",
    (ins Moe_BufIn:$logits), (ins Moe_BufOut:$loss), Moe_ZLossAttrs>;

def Moe_BufferExpertBiasUpdateOp : Moe_BufferOp<"expert_bias_update",
    "moe.expert_bias_update", (ins Moe_BufIn:$bias, Moe_BufIn:$counts),
    (ins Moe_BufOut:$updated_bias), Moe_BiasUpdateAttrs>;

def Moe_BufferPermuteOp : Moe_BufferOp<"permute", "moe.permute",
    (ins Moe_BufIn:$x, Moe_BufIn:$indices),
    (ins Moe_BufOut:$permuted, Moe_BufOut:$group_sizes, Moe_BufOut:$rows),
    Moe_PermuteAttrs>;

// `scales` is empty, or (a_scale, b_scale) for FP8 operands.
def Moe_BufferGroupedMatmulOp : Moe_BufferOp<"grouped_matmul",
    "moe.grouped_matmul",
    (ins Moe_BufIn:$a, Moe_BufIn:$b, Moe_BufIn:$group_sizes,
         Arg<Variadic<AnyMemRef>, "FP8 scales", [MemRead]>:$scales),
    (ins Moe_BufOut:$c), Moe_WeightLayoutAttrs> {
  let extraClassDeclaration = [{
    ::mlir::Value getAScale() {
      return getScales().empty() ? ::mlir::Value() : getScales()[0];
    }
    ::mlir::Value getBScale() {
      return getScales().size() < 2 ? ::mlir::Value() : getScales()[1];
    }
  }];
}

def Moe_BufferGroupedWeightGradOp : Moe_BufferOp<"grouped_weight_grad",
    "moe.grouped_weight_grad",
    (ins Moe_BufIn:$a, Moe_BufIn:$dc, Moe_BufIn:$group_sizes),
    (ins Moe_BufOut:$db), Moe_WeightLayoutAttrs>;

def Moe_BufferGluOp : Moe_BufferOp<"glu", "moe.glu",
    (ins Moe_BufIn:$gate, Moe_OptBufIn:$up), (ins Moe_BufOut:$h),
    Moe_GluAttrs>;

def Moe_BufferAllToAllOp : Moe_BufferOp<"all_to_all", "moe.all_to_all",
    (ins Moe_BufIn:$input, Moe_BufIn:$send_sizes),
    (ins Moe_BufOut:$output, Moe_BufOut:$recv_sizes), Moe_AllToAllAttrs,
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]>;

def Moe_BufferCombineOp : Moe_BufferOp<"combine", "moe.combine",
    (ins Moe_BufIn:$y, Moe_BufIn:$rows, Moe_BufIn:$weights),
    (ins Moe_BufOut:$out), (ins)>;

def Moe_BufferCombineGradOp : Moe_BufferOp<"combine_grad", "moe.combine_grad",
    (ins Moe_BufIn:$dout, Moe_BufIn:$y, Moe_BufIn:$rows, Moe_BufIn:$weights),
    (ins Moe_BufOut:$dy, Moe_BufOut:$dweights), (ins)>;

// Delayed scaling: `amax_history` is read and then rolled in place (the
// bufferization gives it a fresh copy, the tensor op's new history).
def Moe_BufferQuantizeOp : Moe_BufferOp<"quantize", "moe.quantize",
    (ins Moe_BufIn:$input, Moe_OptBufInOut:$amax_history),
    (ins Moe_BufOut:$output, Moe_BufOut:$scale), Moe_QuantAttrs> {
  let extraClassDeclaration = [{
    /// The history is rolled in place: the in-out buffer is the new history.
    ::mlir::Value getNewAmaxHistory() { return getAmaxHistory(); }
  }];
}

def Moe_BufferDequantizeOp : Moe_BufferOp<"dequantize", "moe.dequantize",
    (ins Moe_BufIn:$input, Moe_BufIn:$scale), (ins Moe_BufOut:$output),
    Moe_QuantAttrs>;

#endif // MOE_BUFFER_OPS_TD
