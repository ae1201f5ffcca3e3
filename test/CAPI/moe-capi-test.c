//===- moe-capi-test.c - the moe dialect and passes through the C API -----===//
//
// A plain C program, as a C-API user writes one: it loads the moe dialect
// through its handle, parses a moe module, checks that the moe verifier runs
// (a moe.layer stripped of its required `k` fails with the dialect's
// message), runs moe-expand-layer through the pass manager, first by its
// registered name and then as the pass object the C API creates, and prints
// the results.
//
// RUN: moe-capi-test %moe_src_root/examples/small.mlir 2>&1 | FileCheck %s
// RUN: not moe-capi-test %moe_src_root/does-not-exist.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-FILE
//
//===----------------------------------------------------------------------===//
#include "MoeDialect-c/Dialects.h"
#include "MoeDialect-c/Passes.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

// Prints every diagnostic as "diagnostic: <message>" and marks it handled.
static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

// Walk callback: stores the first moe.layer in *userData and stops.
static MlirWalkResult findLayer(MlirOperation op, void *userData) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (!mlirStringRefEqual(name, mlirStringRefCreateFromCString("moe.layer")))
    return MlirWalkResultAdvance;
  *(MlirOperation *)userData = op;
  return MlirWalkResultInterrupt;
}

static MlirModule parseFile(MlirContext context, const char *path) {
  MlirModule module =
      mlirModuleCreateParseFromFile(context, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(module))
    fprintf(stderr, "error: cannot parse %s\n", path);
  return module;
}

// CHECK-LABEL: moe dialect handle
// CHECK-NEXT: namespace: moe
// CHECK-NEXT: loaded: moe
// CHECK-NEXT: moe.layer registered: 1
static int loadMoeDialect(MlirContext context) {
  MlirDialectHandle moe = mlirGetDialectHandle__moe__();
  printf("moe dialect handle\nnamespace: ");
  printToStdout(mlirDialectHandleGetNamespace(moe), NULL);
  printf("\n");
  MlirDialect dialect = mlirDialectHandleLoadDialect(moe, context);
  if (mlirDialectIsNull(dialect))
    return 1;
  printf("loaded: ");
  printToStdout(mlirDialectGetNamespace(dialect), NULL);
  printf("\nmoe.layer registered: %d\n",
         mlirContextIsRegisteredOperation(
             context, mlirStringRefCreateFromCString("moe.layer")));
  return 0;
}

// CHECK-LABEL: verify
// CHECK-NEXT: verified: 1
// CHECK-NEXT: diagnostic: 'moe.layer' op requires attribute 'k'
// CHECK-NEXT: verified without k: 0
static int verifyLayer(MlirContext context, const char *path) {
  printf("verify\n");
  MlirModule module = parseFile(context, path);
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  printf("verified: %d\n", mlirOperationVerify(moduleOp));

  MlirOperation layer = {NULL};
  mlirOperationWalk(moduleOp, findLayer, &layer, MlirWalkPreOrder);
  if (mlirOperationIsNull(layer)) {
    fprintf(stderr, "error: no moe.layer in %s\n", path);
    mlirModuleDestroy(module);
    return 1;
  }
  mlirOperationRemoveAttributeByName(layer, mlirStringRefCreateFromCString("k"));
  printf("verified without k: %d\n", mlirOperationVerify(moduleOp));
  mlirModuleDestroy(module);
  return 0;
}

// Parses `path`, runs `pm` on it and prints the result.
static int runAndPrint(MlirContext context, MlirPassManager pm,
                       const char *path) {
  MlirModule module = parseFile(context, path);
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  int failed =
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, moduleOp));
  if (!failed)
    mlirOperationPrint(moduleOp, printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);
  return failed;
}

// CHECK-LABEL: expand by name
// CHECK: func.func @moe_layer
// CHECK: moe.gate
// CHECK: moe.route softmax
// CHECK: moe.topk softmax
// CHECK: moe.permute
// CHECK-COUNT-2: moe.grouped_matmul
// CHECK: moe.glu silu
// CHECK: moe.grouped_matmul
// CHECK: moe.combine
// CHECK: moe.aux_loss
// CHECK: moe.z_loss
// CHECK-NOT: moe.layer
static int expandByName(MlirContext context, const char *path) {
  printf("expand by name\n");
  mlirRegisterMoePasses();
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(func.func(moe-expand-layer))"),
      printToStdout, NULL);
  int failed = mlirLogicalResultIsFailure(parsed) ||
               runAndPrint(context, pm, path);
  mlirPassManagerDestroy(pm);
  return failed;
}

// CHECK-LABEL: expand with the created pass
// CHECK: func.func @moe_layer
// CHECK: moe.gate
// CHECK: moe.combine
// CHECK-NOT: moe.layer
static int expandWithCreatedPass(MlirContext context, const char *path) {
  printf("expand with the created pass\n");
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager funcPm = mlirPassManagerGetNestedUnder(
      pm, mlirStringRefCreateFromCString("func.func"));
  mlirOpPassManagerAddOwnedPass(funcPm,
                                mlirCreateMoeTransformsMoeExpandLayerPass());
  int failed = runAndPrint(context, pm, path);
  mlirPassManagerDestroy(pm);
  return failed;
}

// NO-FILE: error: cannot parse {{.*}}does-not-exist.mlir
int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <module.mlir with a moe.layer>\n", argv[0]);
    return 2;
  }
  const char *path = argv[1];

  MlirContext context = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  // The handle first, into an empty context: moe.layer is known through it
  // alone. The module needs func and tensor too, and the passes moe's
  // external interface models: mlirRegisterMoeDialects adds those.
  int failed = loadMoeDialect(context);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterMoeDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);

  failed = failed || verifyLayer(context, path) ||
           expandByName(context, path) || expandWithCreatedPass(context, path);
  mlirContextDestroy(context);
  return failed;
}
