//===- EntryNames.cpp - names and roles of entry arguments ----------------===//
#include "MoeDialect/Transforms/EntryNames.h"

#include "MoeDialect/Dialect/MoeOps.h"

namespace mlir::moe {

/// Name and role of an argument from how a moe.layer uses it.
static std::pair<StringRef, StringRef> layerOperandName(BlockArgument arg) {
  for (Operation *user : arg.getUsers()) {
    auto layer = dyn_cast<LayerOp>(user);
    if (!layer)
      continue;
    if (layer.getX() == arg)
      return {"x", "input"};
    std::pair<Value, StringRef> weights[] = {
        {layer.getRouterWeight(), "router_weight"},
        {layer.getBias(), "bias"},
        {layer.getWGate(), "w_gate"},
        {layer.getWUp(), "w_up"},
        {layer.getWDown(), "w_down"}};
    for (auto [value, name] : weights)
      if (value == arg)
        return {name, "weight"};
  }
  return {"", ""};
}

void annotateEntryNames(func::FuncOp func) {
  if (func.isExternal())
    return;
  MLIRContext *ctx = func.getContext();
  auto setIfMissing = [&](auto getAttr, auto setAttr, StringRef key,
                          StringRef value) {
    if (!getAttr(key) && !value.empty())
      setAttr(key, StringAttr::get(ctx, value));
  };
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto [name, role] = layerOperandName(arg);
    std::string fallback = "arg" + std::to_string(i);
    auto get = [&](StringRef key) { return func.getArgAttr(i, key); };
    auto set = [&](StringRef key, Attribute v) { func.setArgAttr(i, key, v); };
    setIfMissing(get, set, kNameAttr, name.empty() ? StringRef(fallback) : name);
    setIfMissing(get, set, kRoleAttr, role.empty() ? StringRef("input") : role);
  }
  // A result returned straight from a moe.layer is named after it; any
  // func.return of the body says which (there may be several blocks).
  func::ReturnOp ret;
  for (Block &block : func.getBody())
    if (block.mightHaveTerminator())
      if ((ret = dyn_cast<func::ReturnOp>(block.getTerminator())))
        break;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    std::string name = "result" + std::to_string(i);
    if (ret && i < ret.getNumOperands())
      if (auto layer = ret.getOperand(i).getDefiningOp<LayerOp>())
        name = ret.getOperand(i) == layer.getOut() ? "out" : "aux_loss";
    auto get = [&, i = i](StringRef key) { return func.getResultAttr(i, key); };
    auto set = [&, i = i](StringRef key, Attribute v) {
      func.setResultAttr(i, key, v);
    };
    setIfMissing(get, set, kNameAttr, name);
    setIfMissing(get, set, kRoleAttr, "output");
  }
}

DictionaryAttr nameAndRole(MLIRContext *ctx, StringRef name, StringRef role) {
  return DictionaryAttr::get(
      ctx, {NamedAttribute(StringAttr::get(ctx, kNameAttr),
                           StringAttr::get(ctx, name)),
            NamedAttribute(StringAttr::get(ctx, kRoleAttr),
                           StringAttr::get(ctx, role))});
}

std::optional<unsigned> argumentNamed(func::FuncOp func, StringRef name) {
  std::optional<unsigned> index;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto n = func.getArgAttrOfType<StringAttr>(i, kNameAttr);
        n && n.getValue() == name)
      index = i;
  return index;
}

std::optional<unsigned> resultNamed(func::FuncOp func, StringRef name) {
  std::optional<unsigned> index;
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (auto n = func.getResultAttrOfType<StringAttr>(i, kNameAttr);
        n && n.getValue() == name)
      index = i;
  return index;
}

} // namespace mlir::moe
