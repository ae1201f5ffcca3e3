//===- MoeInterfaces.td - interfaces of the moe dialect ----*- tablegen -*-===//
#ifndef MOE_INTERFACES_TD
#define MOE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Moe_VJPOpInterface : OpInterface<"VJPOpInterface"> {
  let cppNamespace = "::mlir::moe";
  let description = [{
    The adjoint of an op for `moe-generate-vjp`, which builds ONE backward
    function for a whole forward function by walking it in reverse and
    asking each op for its vector-Jacobian product. Forward values an adjoint
    needs are obtained through `VJPContext::forward`, which decides whether
    they are saved as residuals or recomputed in the backward function; the
    adjoint never refers to forward values directly. Which of the two happens
    is the op's own `getRecomputeClass`, matched against the pass's
    `recompute` option.

    The moe ops implement it in lib/Dialect/VJPInterfaceImpl.cpp; the
    upstream arith and tensor ops that moe programs use around them
    (elementwise float arithmetic, casts, reshapes, constants, empty tensors)
    in lib/Dialect/UpstreamVJPInterfaceImpl.cpp, as external models attached
    when those dialects are loaded. The pass handles every op through this
    interface and reports an op without it by name.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether operand `index` carries a gradient (indices, sizes, the
        expert bias and FP8 scales do not).
      }], "bool", "isDifferentiableOperand", (ins "unsigned":$index), "",
      [{ return true; }]>,
    InterfaceMethod<[{
        Builds, at the builder's insertion point in the backward function,
        the cotangents of the operands from those of the results.
        `resultCotangents[i]` is null when no gradient reaches result i.
        Appends one value per operand to `operandCotangents`, null where the
        operand is not differentiable or receives nothing.
      }], "::llvm::LogicalResult", "buildVJP",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::moe::VJPContext &":$context,
           "::llvm::ArrayRef<::mlir::Value>":$resultCotangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents)>,
    InterfaceMethod<[{
        The op's class for the residual policy: when the backward needs one
        of its results, the op is cloned into the backward (from its own
        saved or recomputed operands) if the class is `Always` or is named in
        moe-generate-vjp's `recompute` option, and the result is saved as a
        residual otherwise (`Never`, the default).
      }], "::mlir::moe::RecomputeClass", "getRecomputeClass", (ins), "",
      [{ return ::mlir::moe::RecomputeClass::Never; }]>
  ];
}

def Moe_ParallelScheduleOpInterface : OpInterface<"ParallelScheduleOpInterface"> {
  let cppNamespace = "::mlir::moe";
  let description = [{
    An op whose lowering on memrefs is parallel loops over independent work
    items (tokens, rows, elements, token chunks), so that on the GPU every
    item is a thread: either a chunked multi-phase schedule of its own
    (convert-moe-to-parallel-loops: permute, combine_grad, the losses, FP8
    quantize/dequantize but mx_1x32) or
    reference loops that are parallel loops already (gate, route, topk, glu,
    combine). convert-moe-to-parallel-loops{single-thread-kernels} runs the
    sequential reference loops of every other op in a single-thread kernel.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether this op, with its attributes, lowers to parallel loops (an
        op may have none for some attribute values: a global aux loss over
        a grid lowers to the reference pattern, which reports it).
      }], "bool", "hasParallelSchedule", (ins), "", [{ return true; }]>
  ];
}

#endif // MOE_INTERFACES_TD
