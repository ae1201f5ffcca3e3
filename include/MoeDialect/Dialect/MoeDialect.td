//===- MoeDialect.td - the moe dialect ---------------------*- tablegen -*-===//
#ifndef MOE_DIALECT_TD
#define MOE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Moe_Dialect : Dialect {
  let name = "moe";
  let cppNamespace = "::mlir::moe";
  let summary = "Mixture-of-Experts layers as first-class operations";
  let description = [{
    The `moe` dialect states what a Mixture-of-Experts layer does: the router
    projection (`moe.gate`), the score function (`moe.route`), expert
    selection (`moe.topk`), load-balancing losses (`moe.aux_loss`,
    `moe.z_loss`, `moe.expert_bias_update`), token dispatch (`moe.permute`),
    ragged expert matmuls (`moe.grouped_matmul`, `moe.grouped_weight_grad`),
    the gated activation (`moe.glu`), expert-parallel exchange
    (`moe.all_to_all`), the weighted gather back to tokens (`moe.combine`,
    and its adjoint `moe.combine_grad`),
    FP8 quantization (`moe.quantize`, `moe.dequantize`) and the whole block as
    one op (`moe.layer`). Every op but `moe.layer` is in destination-passing
    style: it takes the destinations of its results (`outs`), on tensors
    (value semantics, results tied to the destinations) or, once
    one-shot-bufferize has run, on memrefs (written in place, no results).
    Every differentiable op implements
    `VJPOpInterface`, its adjoint for `moe-generate-vjp`.
    Router math is f32; activations and weights are bf16 (f16 and f32 are
    accepted everywhere); accumulation is f32.
  }];
  // Builders without destinations create tensor.empty ones.
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect"];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
  let hasConstantMaterializer = 0;
}

class Moe_Op<string mnemonic, list<Trait> traits = []>
    : Op<Moe_Dialect, mnemonic, traits>;

#endif // MOE_DIALECT_TD
