//===- EntryRecords.h - the entries a module records ------------*- C++ -*-===//
//
// moe-reserve-entry-names records every entry in the module attribute
// `moe.entries` (an array of {name, reserved, pointers} dictionaries);
// moe-restore-entry-names and moe-add-packed-wrappers read it after the
// lowering, which keeps module attributes but may drop or rename functions.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_ENTRYABI_ENTRYRECORDS_H
#define MOE_LIB_CONVERSION_ENTRYABI_ENTRYRECORDS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::moe::entry_abi {

inline constexpr llvm::StringLiteral kEntriesAttr = "moe.entries";

struct EntryRecord {
  StringAttr name;     ///< the entry's C name
  StringAttr reserved; ///< its name while lowering
  int64_t pointers;    ///< arguments plus results: its packed pointer array
};

void writeEntryRecords(ModuleOp module, ArrayRef<EntryRecord> records);

/// The records of `module`; an error at the module when `moe.entries` is
/// missing or malformed.
FailureOr<SmallVector<EntryRecord>> readEntryRecords(ModuleOp module);

} // namespace mlir::moe::entry_abi

#endif // MOE_LIB_CONVERSION_ENTRYABI_ENTRYRECORDS_H
