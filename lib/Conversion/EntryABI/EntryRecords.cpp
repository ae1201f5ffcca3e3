//===- EntryRecords.cpp - the entries a module records for its ABI --------===//
#include "EntryRecords.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::moe::entry_abi {

void writeEntryRecords(ModuleOp module, ArrayRef<EntryRecord> records) {
  Builder b(module.getContext());
  SmallVector<Attribute> entries;
  for (const EntryRecord &record : records)
    entries.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("name", record.name),
         b.getNamedAttr("reserved", record.reserved),
         b.getNamedAttr("pointers", b.getI64IntegerAttr(record.pointers))}));
  module->setAttr(kEntriesAttr, b.getArrayAttr(entries));
}

FailureOr<SmallVector<EntryRecord>> readEntryRecords(ModuleOp module) {
  auto entries = module->getAttrOfType<ArrayAttr>(kEntriesAttr);
  if (!entries)
    return module.emitError("no '")
           << kEntriesAttr << "' array: run moe-reserve-entry-names first";
  SmallVector<EntryRecord> records;
  for (Attribute entry : entries) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto name = dict ? dict.getAs<StringAttr>("name") : StringAttr();
    auto reserved = dict ? dict.getAs<StringAttr>("reserved") : StringAttr();
    auto pointers = dict ? dict.getAs<IntegerAttr>("pointers") : IntegerAttr();
    if (!name || !reserved || !pointers)
      return module.emitError("'")
             << kEntriesAttr
             << "' holds an entry that is not {name, reserved, pointers}: "
             << entry;
    records.push_back({name, reserved, pointers.getInt()});
  }
  return records;
}

} // namespace mlir::moe::entry_abi
