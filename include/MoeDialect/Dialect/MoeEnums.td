//===- MoeEnums.td - enum attributes of the moe dialect ----*- tablegen -*-===//
#ifndef MOE_ENUMS_TD
#define MOE_ENUMS_TD

include "MoeDialect/Dialect/MoeDialect.td"
include "mlir/IR/EnumAttr.td"

class Moe_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::moe";
  let genSpecializedAttr = 0;
}

class Moe_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Moe_Dialect, info, mnemonic>;

def Moe_ScoreFunction : Moe_I32Enum<"ScoreFunction", "router score function", [
  I32EnumAttrCase<"Softmax", 0, "softmax">,
  I32EnumAttrCase<"Sigmoid", 1, "sigmoid">,
  I32EnumAttrCase<"SqrtSoftplus", 2, "sqrtsoftplus">,
  I32EnumAttrCase<"Identity", 3, "identity">]>;
def Moe_ScoreFunctionAttr : Moe_EnumAttr<Moe_ScoreFunction, "score_function">;

def Moe_Normalize : Moe_I32Enum<"Normalize", "top-k weight normalization", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"Sum", 1, "sum">,
  I32EnumAttrCase<"Softmax", 2, "softmax">]>;
def Moe_NormalizeAttr : Moe_EnumAttr<Moe_Normalize, "normalize">;

def Moe_GroupScore : Moe_I32Enum<"GroupScore", "expert-group score rule", [
  I32EnumAttrCase<"TopSum", 0, "top_sum">,
  I32EnumAttrCase<"Max", 1, "max">]>;
def Moe_GroupScoreAttr : Moe_EnumAttr<Moe_GroupScore, "group_score">;

def Moe_AuxLossVariant : Moe_I32Enum<"AuxLossVariant",
    "load-balancing loss variant", [
  I32EnumAttrCase<"Batch", 0, "batch">,
  I32EnumAttrCase<"Sequence", 1, "sequence">,
  I32EnumAttrCase<"Global", 2, "global">]>;
def Moe_AuxLossVariantAttr : Moe_EnumAttr<Moe_AuxLossVariant, "aux_loss_variant">;

def Moe_Activation : Moe_I32Enum<"Activation", "gated-linear-unit activation", [
  I32EnumAttrCase<"Silu", 0, "silu">,
  I32EnumAttrCase<"Gelu", 1, "gelu">,
  I32EnumAttrCase<"GeluTanh", 2, "gelu_tanh">,
  I32EnumAttrCase<"Relu", 3, "relu">,
  I32EnumAttrCase<"Relu2", 4, "relu2">,
  I32EnumAttrCase<"Identity", 5, "identity">]>;
def Moe_ActivationAttr : Moe_EnumAttr<Moe_Activation, "activation">;

def Moe_WeightLayout : Moe_I32Enum<"WeightLayout",
    "layout of grouped-matmul weights", [
  I32EnumAttrCase<"KN", 0, "kn">,
  I32EnumAttrCase<"NK", 1, "nk">]>;
def Moe_WeightLayoutAttr : Moe_EnumAttr<Moe_WeightLayout, "weight_layout">;

def Moe_QuantRecipe : Moe_I32Enum<"QuantRecipe", "FP8 quantization recipe", [
  I32EnumAttrCase<"Tensorwise", 0, "tensorwise">,
  I32EnumAttrCase<"Delayed", 1, "delayed">,
  I32EnumAttrCase<"Block1x128", 2, "block_1x128">,
  I32EnumAttrCase<"Block128x128", 3, "block_128x128">,
  I32EnumAttrCase<"MX1x32", 4, "mx_1x32">]>;
def Moe_QuantRecipeAttr : Moe_EnumAttr<Moe_QuantRecipe, "recipe">;

// The residual policy of moe-generate-vjp (VJPOpInterface::getRecomputeClass):
// when the backward needs a result of an op, the op is recomputed there if its
// class is `always` or is named in the pass's `recompute` option (by the
// string of the case), and the result is saved as a residual otherwise.
def Moe_RecomputeClass : Moe_I32Enum<"RecomputeClass",
    "residual-policy class of an op for moe-generate-vjp", [
  // Saved whatever the option names (the default).
  I32EnumAttrCase<"Never", 0, "never">,
  // Recomputed whatever the option names: nothing to save (constants, empty
  // tensors).
  I32EnumAttrCase<"Always", 1, "always">,
  // The expert activation (moe.glu).
  I32EnumAttrCase<"ExpertActivation", 2, "glu">,
  // The token dispatch (moe.permute).
  I32EnumAttrCase<"Dispatch", 3, "permute">,
  // The router logits (moe.gate).
  I32EnumAttrCase<"RouterLogits", 4, "gate">,
  // The router scores (moe.route).
  I32EnumAttrCase<"RouterScores", 5, "route">]>;

#endif // MOE_ENUMS_TD
