//===- CollectiveCalls.h - collectives over several ranks → runtime calls -===//
//
// moe.all_to_all, moe.all_reduce and the counts of a global moe.aux_loss over
// more than one rank, as calls into a runtime's collectives: libmoe_runtime's
// moert_coll_* (moert_coll_abi.def: host pointers; the CPU target) or
// libmoe_runtime_gpu's moert_entry_coll_* (moert_coll_gpu_abi.def: device
// pointers, on the runtime stream; the GPU target). The twins take the same
// arguments, so both targets build their calls here.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_CONVERSION_MOETORUNTIMECALLS_COLLECTIVECALLS_H
#define MOE_CONVERSION_MOETORUNTIMECALLS_COLLECTIVECALLS_H

#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::moe::runtime_abi {

/// Whose collectives a call goes to.
enum class CollectiveRuntime {
  host, ///< moert_coll_* of libmoe_runtime (CPU buffers)
  gpu,  ///< moert_entry_coll_* of libmoe_runtime_gpu (device buffers)
};

/// moe.all_to_all on buffers over `ranks` > 1 ranks → one all-to-all call
/// at `b` (send_sizes has P·C entries: C = its length / `ranks`). Reports at
/// the op what cannot be called (an output that is not rank-2 rows, a
/// layout other than the identity, a call inside a GPU kernel).
LogicalResult buildAllToAllCall(AllToAllOp op, OpBuilder &b, int64_t ranks,
                                CollectiveRuntime runtime);

/// moe.all_reduce on buffers over several ranks → output = input (a copy
/// unless they are one buffer), then one in-place all-reduce call of every
/// element. One grid axis; f32, f64, i32 or i64 elements.
LogicalResult buildAllReduceCall(AllReduceOp op, OpBuilder &b,
                                 CollectiveRuntime runtime);

/// What sums a buffer of i64 counts over the ranks in place: a builder of
/// the all-reduce call of all its elements.
using SumOverRanks = std::function<void(OpBuilder &, Location, Value)>;

/// The i64 counts of a global moe.aux_loss over several ranks, summed over
/// the ranks of its one grid axis. Declares the runtime function in the
/// module first (the call may be built inside a region not yet attached).
FailureOr<SumOverRanks> sumCountsOverRanks(AuxLossOp op, OpBuilder &b,
                                           CollectiveRuntime runtime);

} // namespace mlir::moe::runtime_abi

#endif // MOE_CONVERSION_MOETORUNTIMECALLS_COLLECTIVECALLS_H
