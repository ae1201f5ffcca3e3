//===- ObjectEmission.cpp - LLVM dialect → object → shared library --------===//
#include "ObjectEmission.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

namespace mlir::moe::compile {

static std::unique_ptr<llvm::TargetMachine> hostTargetMachine(std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  // Generic CPU: the artifact runs on any machine of this architecture.
  llvm::TargetOptions options;
  // Constructors (GPU targets load their kernel modules in one) go to
  // .init_array, which the dynamic loader runs; lld does not turn .ctors
  // into it.
  options.UseInitArray = true;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "generic", "", options, llvm::Reloc::PIC_));
}

FailureOr<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &context) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "moe-artifact");
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed"), failure();
  std::string error;
  auto machine = hostTargetMachine(error);
  if (!machine)
    return module.emitError("no host target: ") << error, failure();
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(machine->getTargetTriple());
  auto optimize = makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                            machine.get());
  if (llvm::Error err = optimize(llvmModule.get())) {
    module.emitError("LLVM optimization failed: ")
        << llvm::toString(std::move(err));
    return failure();
  }
  return llvmModule;
}

LogicalResult embedArtifactMetadata(llvm::Module &module,
                                    llvm::StringRef metadata) {
  constexpr llvm::StringLiteral symbol = "moe_artifact_metadata";
  if (module.getNamedValue(symbol)) {
    llvm::errs() << "moe-compile: error: the program defines '" << symbol
                 << "', the symbol of the artifact's embedded metadata; "
                    "rename it\n";
    return failure();
  }
  llvm::Constant *text = llvm::ConstantDataArray::getString(
      module.getContext(), metadata, /*AddNull=*/true);
  new llvm::GlobalVariable(module, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text, symbol);
  return success();
}

LogicalResult emitObject(llvm::Module &module, llvm::StringRef path) {
  std::string error;
  auto machine = hostTargetMachine(error);
  if (!machine)
    return emitError(UnknownLoc::get(nullptr), "no host target: ") << error,
           failure();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "moe-compile: error: cannot write " << path << ": "
                 << ec.message() << "\n";
    return failure();
  }
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    llvm::errs() << "moe-compile: error: the host target cannot emit objects\n";
    return failure();
  }
  pm.run(module);
  os.flush();
  return success();
}

static std::string findLinker() {
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  if (auto path = llvm::sys::findProgramByName("ld.lld", {"/usr/lib/llvm-22/bin"}))
    return *path;
  return "";
}

LogicalResult linkSharedLibrary(llvm::StringRef object, llvm::StringRef output) {
  std::string linker = findLinker();
  if (linker.empty()) {
    llvm::errs() << "moe-compile: error: lld not found (looked for ld.lld-22 "
                    "and ld.lld on PATH and in /usr/lib/llvm-22/bin); install "
                    "lld-22\n";
    return failure();
  }
  llvm::SmallString<128> logPath;
  if (llvm::sys::fs::createTemporaryFile("moe-link", "log", logPath)) {
    llvm::errs() << "moe-compile: error: cannot create a temporary file\n";
    return failure();
  }
  llvm::SmallVector<llvm::StringRef> args = {linker, "-shared", "--as-needed",
                                             "-o", output, object};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(linker, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &error);
  auto log = llvm::MemoryBuffer::getFile(logPath);
  llvm::sys::fs::remove(logPath);
  if (rc == 0)
    return success();
  llvm::errs() << "moe-compile: error: linking failed (exit " << rc << ")";
  if (!error.empty())
    llvm::errs() << ": " << error;
  llvm::errs() << "\n  command:";
  for (llvm::StringRef arg : args)
    llvm::errs() << " " << arg;
  llvm::errs() << "\n";
  if (log && (*log)->getBufferSize())
    llvm::errs() << (*log)->getBuffer();
  return failure();
}

} // namespace mlir::moe::compile
