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
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // MOE_TRANSFORMS_PASSES_TD
