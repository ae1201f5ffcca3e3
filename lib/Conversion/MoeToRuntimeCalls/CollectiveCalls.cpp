//===- CollectiveCalls.cpp - collectives over several ranks → runtime calls
//===//
#include "CollectiveCalls.h"
#include "RuntimeAbi.h"

#include "MoeDialect/Dialect/Grids.h"
#include "moe_runtime/moe_runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::moe;
using namespace mlir::moe::runtime_abi;

namespace {

// The host and GPU collectives are twins: one C++ type per signature. A .def
// that changes one without the other stops compiling here.
static_assert(
    std::is_same_v<decltype(runtime_abi::moert_coll_all_to_all),
                   decltype(runtime_abi::moert_entry_coll_all_to_all)>);
static_assert(
    std::is_same_v<decltype(runtime_abi::moert_coll_all_reduce),
                   decltype(runtime_abi::moert_entry_coll_all_reduce)>);

const auto &allToAllOf(CollectiveRuntime runtime) {
  return runtime == CollectiveRuntime::gpu
             ? runtime_abi::moert_entry_coll_all_to_all
             : runtime_abi::moert_coll_all_to_all;
}

const auto &allReduceOf(CollectiveRuntime runtime) {
  return runtime == CollectiveRuntime::gpu
             ? runtime_abi::moert_entry_coll_all_reduce
             : runtime_abi::moert_coll_all_reduce;
}

/// Checks that a collective over several ranks can become a host runtime
/// call here: not inside a GPU kernel (both runtimes' collectives are called
/// from the host) and on memrefs of the identity layout (the runtime takes
/// base pointers).
LogicalResult checkCollectiveCall(Operation *op, ValueRange buffers) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->getName().getStringRef() == "gpu.launch")
      return op->emitOpError("over several ranks runs on the host; it cannot "
                             "be lowered inside a GPU kernel");
  for (Value buffer : buffers)
    if (!cast<MemRefType>(buffer.getType()).getLayout().isIdentity())
      return op->emitOpError("over several ranks needs buffers of the "
                             "identity layout, not ")
             << buffer.getType();
  return success();
}

/// The number of elements of `memref` as i64.
Value elementCount(OpBuilder &b, Location loc, Value memref) {
  Value count = i64Value(b, loc, 1);
  for (int64_t d = 0, e = cast<MemRefType>(memref.getType()).getRank(); d < e;
       ++d)
    count = arith::MulIOp::create(b, loc, count, i64Dim(b, loc, memref, d));
  return count;
}

/// The moert_dtype code of a summed element type, or -1.
int32_t dtypeCode(Type t) {
  if (t.isF64())
    return MOERT_F64;
  if (t.isF32())
    return MOERT_F32;
  if (t.isSignlessInteger(64))
    return MOERT_I64;
  if (t.isSignlessInteger(32))
    return MOERT_I32;
  return -1;
}

/// Every element of `buffer` (`code` elements) summed in place over the
/// ranks of `axis` of grid number `grid`.
void callAllReduce(OpBuilder &b, Location loc, CollectiveRuntime runtime,
                   int64_t grid, int64_t axis, Value buffer, int32_t code) {
  allReduceOf(runtime).call(
      b, loc,
      {i64Value(b, loc, grid), i64Value(b, loc, axis),
       pointerArgument(b, loc, buffer), elementCount(b, loc, buffer),
       arith::ConstantIntOp::create(b, loc, b.getI32Type(), code)});
}

/// The axes of `axes` with more than one rank: a sum over several axes is
/// one sum per axis (over the ranks that share the other coordinates), and
/// an axis of one rank needs none.
FailureOr<SmallVector<int64_t>> axesToSum(Operation *op, FlatSymbolRefAttr grid,
                                          ArrayRef<int64_t> axes) {
  SmallVector<int64_t> summed;
  for (int64_t axis : axes) {
    FailureOr<int64_t> ranks = ranksOn(op, grid, {axis});
    if (failed(ranks))
      return failure();
    if (*ranks != 1)
      summed.push_back(axis);
  }
  return summed;
}

} // namespace

LogicalResult runtime_abi::buildAllToAllCall(AllToAllOp op, OpBuilder &b,
                                             int64_t ranks,
                                             CollectiveRuntime runtime) {
  Location loc = op.getLoc();
  Value input = op.getInput(), sendSizes = op.getSendSizes();
  Value output = op.getOutputInit(), recvSizes = op.getRecvSizesInit();
  if (failed(checkCollectiveCall(op, {input, sendSizes, output, recvSizes})))
    return failure();
  auto grid = gridIndex(op, op.getGridAttr());
  if (failed(grid))
    return failure();
  auto outType = cast<MemRefType>(output.getType());
  if (outType.getRank() != 2)
    return op.emitOpError("over several ranks exchanges rank-2 row blocks");
  int64_t elementBytes =
      (outType.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  Value rowBytes = arith::MulIOp::create(b, loc, i64Dim(b, loc, output, 1),
                                         i64Value(b, loc, elementBytes));
  Value chunks = arith::DivSIOp::create(b, loc, i64Dim(b, loc, sendSizes, 0),
                                        i64Value(b, loc, ranks));
  allToAllOf(runtime).call(
      b, loc,
      {i64Value(b, loc, *grid), i64Value(b, loc, op.getGridAxis()),
       pointerArgument(b, loc, input), pointerArgument(b, loc, sendSizes),
       chunks, i64Dim(b, loc, input, 0), pointerArgument(b, loc, output),
       pointerArgument(b, loc, recvSizes), i64Dim(b, loc, output, 0),
       rowBytes});
  return success();
}

LogicalResult runtime_abi::buildAllReduceCall(AllReduceOp op, OpBuilder &b,
                                              CollectiveRuntime runtime) {
  Location loc = op.getLoc();
  Value input = op.getInput(), output = op.getOutputInit();
  if (failed(checkCollectiveCall(op, {output})))
    return failure();
  auto grid = gridIndex(op, op.getGridAttr());
  auto axes = axesToSum(op, op.getGridAttr(), op.getGridAxes());
  if (failed(grid) || failed(axes))
    return failure();
  auto type = cast<MemRefType>(output.getType());
  int32_t code = dtypeCode(type.getElementType());
  if (code < 0)
    return op.emitOpError("over several ranks sums f32, f64, i32 or i64, not ")
           << type.getElementType();
  if (input != output)
    memref::CopyOp::create(b, loc, input, output);
  for (int64_t axis : *axes)
    callAllReduce(b, loc, runtime, *grid, axis, output, code);
  return success();
}

FailureOr<SumOverRanks>
runtime_abi::sumCountsOverRanks(AuxLossOp op, OpBuilder &b,
                                CollectiveRuntime runtime) {
  if (failed(checkCollectiveCall(op, {})))
    return failure();
  auto grid = gridIndex(op, op.getGridAttr());
  auto axes = axesToSum(op, op.getGridAttr(),
                        op.getGridAxes().value_or(ArrayRef<int64_t>{}));
  if (failed(grid) || failed(axes))
    return failure();
  allReduceOf(runtime).declare(b, op->getParentOfType<ModuleOp>());
  return SumOverRanks([runtime, grid = *grid, axes = std::move(*axes)](
                          OpBuilder &nb, Location nloc, Value counts) {
    for (int64_t axis : axes)
      callAllReduce(nb, nloc, runtime, grid, axis, counts,
                    dtypeCode(nb.getI64Type()));
  });
}
