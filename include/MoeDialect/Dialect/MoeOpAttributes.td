//===- MoeOpAttributes.td - attribute lists of the moe ops --*- tablegen -*-===//
//
// The attributes of the moe ops (MoeOps.td), one list per op family; moe.layer
// spells its own.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_OP_ATTRIBUTES_TD
#define MOE_OP_ATTRIBUTES_TD

include "MoeDialect/Dialect/MoeEnums.td"

defvar Moe_RouteAttrs = (ins Moe_ScoreFunctionAttr:$score_function);

defvar Moe_TopKAttrs = (ins
  I64Attr:$k,
  Moe_ScoreFunctionAttr:$score_function,
  DefaultValuedAttr<I64Attr, "1">:$num_groups,
  DefaultValuedAttr<I64Attr, "1">:$group_topk,
  DefaultValuedAttr<Moe_GroupScoreAttr, "::mlir::moe::GroupScore::TopSum">:$group_score,
  OptionalAttr<I64Attr>:$group_score_topq,
  DefaultValuedAttr<Moe_NormalizeAttr, "::mlir::moe::Normalize::None">:$normalize,
  DefaultValuedAttr<F64Attr, "1.0">:$scaling_factor);

defvar Moe_AuxLossAttrs = (ins
  Moe_AuxLossVariantAttr:$variant,
  Moe_ScoreFunctionAttr:$score_function,
  F64Attr:$coeff,
  OptionalAttr<I64Attr>:$seq_length,
  OptionalAttr<FlatSymbolRefAttr>:$grid,
  OptionalAttr<DenseI64ArrayAttr>:$grid_axes);

defvar Moe_ZLossAttrs = (ins F64Attr:$coeff);

defvar Moe_BiasUpdateAttrs = (ins DefaultValuedAttr<F64Attr, "1.0e-3">:$rate);

defvar Moe_PermuteAttrs = (ins I64Attr:$num_experts,
                               DefaultValuedAttr<I64Attr, "1">:$align);

defvar Moe_WeightLayoutAttrs = (ins
  DefaultValuedAttr<Moe_WeightLayoutAttr, "::mlir::moe::WeightLayout::KN">:$weight_layout);

defvar Moe_GluAttrs = (ins Moe_ActivationAttr:$activation);

defvar Moe_AllToAllAttrs = (ins FlatSymbolRefAttr:$grid, I64Attr:$grid_axis);

defvar Moe_QuantAttrs = (ins Moe_QuantRecipeAttr:$recipe);

#endif // MOE_OP_ATTRIBUTES_TD
