//===- moert-abi-check.cpp - the GPU runtime's signatures at the IR level -===//
//
// Checks, when it compiles, that libmoe_runtime_gpu's headers declare every
// function of moert_abi.def and moert_coll_gpu_abi.def (what the GPU
// lowering calls) and moert_mgpu_abi.def (what upstream's gpu-to-llvm calls)
// with exactly the list's C signature, and that each C type has the
// LLVM-level kind the list gives it (the kind is what the compiler's
// RuntimeAbi.h passes). When it
// runs, it prints the declaration compiled code must carry for each function
// of one list, derived from the C prototype alone (not from the kinds), one
// per line:
//   moert-abi-check func entries   func.func private @name(!llvm.ptr, i64, ...)
//   moert-abi-check llvm mgpu      llvm.func @name(!llvm.ptr, i64, ...) -> !llvm.ptr
//   moert-abi-check ir mgpu        declare ptr @name(ptr, i64, ...)
// test/abi compares these lists with what the GPU lowering emits, so that a
// runtime function and a call to it cannot disagree in name, arity or
// argument types without a test failing.
//
// Plain C++ against the runtime's plain-C headers: no MLIR, no CUDA, no GPU.
//
//===----------------------------------------------------------------------===//
#include "moe_runtime/moe_runtime_mgpu.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

namespace {

/// The kind column of moert_abi.def.
enum class Kind { none, ptr, i8, i16, i32, i64 };

template <typename T>
struct Unsupported : std::false_type {};

/// The kind a C parameter or result type is passed as (LLVM's x86-64 and
/// aarch64 C calling conventions).
template <typename T>
constexpr Kind kindOf() {
  if constexpr (std::is_void_v<T>)
    return Kind::none;
  else if constexpr (std::is_pointer_v<T>)
    return Kind::ptr;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 1)
    return Kind::i8;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 2)
    return Kind::i16;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4)
    return Kind::i32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
    return Kind::i64;
  else
    static_assert(Unsupported<T>::value, "a C type moert_abi.def has no kind for");
}

/// How a declaration is printed: the func or llvm dialect's form, or LLVM IR's.
enum class Style { func, llvm, ir };

/// The spelling of a C type as an argument or result type in `style`; ""
/// for a void result.
template <typename T>
const char *irType(Style style) {
  switch (kindOf<T>()) {
  case Kind::none:
    return "";
  case Kind::ptr:
    return style == Style::ir ? "ptr" : "!llvm.ptr";
  case Kind::i8:
    return "i8";
  case Kind::i16:
    return "i16";
  case Kind::i32:
    return "i32";
  case Kind::i64:
    return "i64";
  }
  return "?";
}

/// A `kind` and `ctype` of one line of moert_abi.def that agree.
template <Kind K, typename C>
constexpr bool kindMatches() {
  return kindOf<C>() == K;
}

template <typename... Bools>
constexpr bool allOf(Bools... values) {
  return (true && ... && values);
}

// 1. The headers declare each function with the list's C signature.
#define CHECK_SIGNATURE(name, resultKind, resultCType, args)                   \
  static_assert(std::is_same_v<decltype(&::name), resultCType(*) args>,       \
                "the runtime header declares " #name                           \
                " with another signature than its .def");
#define MOERT_ABI_ARG(kind, ctype, name) ctype
#define MOERT_ABI_FUNCTION CHECK_SIGNATURE
#include "moe_runtime/moert_abi.def"
#define MOERT_ABI_ARG(kind, ctype, name) ctype
#define MOERT_ABI_FUNCTION CHECK_SIGNATURE
#include "moe_runtime/moert_coll_gpu_abi.def"
#define MOERT_ABI_ARG(kind, ctype, name) ctype
#define MOERT_ABI_FUNCTION CHECK_SIGNATURE
#define MOERT_ABI_NO_ARGS void
#include "moe_runtime/moert_mgpu_abi.def"

// 2. Each kind is the kind of its C type.
#define CHECK_KINDS(name, resultKind, resultCType, args)                       \
  static_assert(kindMatches<Kind::resultKind, resultCType>() && allOf args,    \
                "a kind of " #name " is not its C type's");
#define MOERT_ABI_ARG(kind, ctype, name) kindMatches<Kind::kind, ctype>()
#define MOERT_ABI_FUNCTION CHECK_KINDS
#include "moe_runtime/moert_abi.def"
#define MOERT_ABI_ARG(kind, ctype, name) kindMatches<Kind::kind, ctype>()
#define MOERT_ABI_FUNCTION CHECK_KINDS
#include "moe_runtime/moert_coll_gpu_abi.def"
#define MOERT_ABI_ARG(kind, ctype, name) kindMatches<Kind::kind, ctype>()
#define MOERT_ABI_FUNCTION CHECK_KINDS
#include "moe_runtime/moert_mgpu_abi.def"

/// The declaration compiled code must carry for the runtime function `name`,
/// from its C type (the last argument: a null pointer of that type; the
/// runtime is not linked):
///   func.func private @name(i64, !llvm.ptr) -> !llvm.ptr     (Style::func)
///   llvm.func @name(i64, !llvm.ptr) -> !llvm.ptr             (Style::llvm)
///   declare ptr @name(i64, ptr)                              (Style::ir)
template <typename Result, typename... Params>
std::string declaration(Style style, const char *name, Result (*)(Params...)) {
  std::string text;
  if (style == Style::func)
    text = "func.func private ";
  else if (style == Style::llvm)
    text = "llvm.func ";
  else
    text = std::string("declare ") +
           (kindOf<Result>() == Kind::none ? "void" : irType<Result>(style)) + " ";
  text += std::string("@") + name + "(";
  const char *types[] = {irType<Params>(style)..., nullptr};
  const char *separator = "";
  for (const char *const *type = types; *type; ++type) {
    text += separator;
    text += *type;
    separator = ", ";
  }
  text += ")";
  if (style != Style::ir && kindOf<Result>() != Kind::none)
    text += std::string(" -> ") + irType<Result>(style);
  return text;
}

} // namespace

int main(int argc, char **argv) {
  auto is = [&](int i, const char *word) {
    return argc == 3 && !std::strcmp(argv[i], word);
  };
  Style style = is(1, "func") ? Style::func : is(1, "llvm") ? Style::llvm : Style::ir;
  bool entries = is(2, "entries");
  if ((style == Style::ir && !is(1, "ir")) || (!entries && !is(2, "mgpu"))) {
    std::fprintf(stderr,
                 "usage: moert-abi-check func|llvm|ir entries|mgpu\n"
                 "  entries: the functions of moert_abi.def and "
                 "moert_coll_gpu_abi.def, mgpu: of moert_mgpu_abi.def\n");
    return 2;
  }
#define PRINT_DECLARATION(name, resultKind, resultCType, args)                 \
  std::printf("%s\n",                                                         \
              declaration(style, #name, decltype (&::name)(nullptr)).c_str());
  if (entries) {
#define MOERT_ABI_ARG(kind, ctype, name)
#define MOERT_ABI_FUNCTION PRINT_DECLARATION
#include "moe_runtime/moert_abi.def"
#define MOERT_ABI_ARG(kind, ctype, name)
#define MOERT_ABI_FUNCTION PRINT_DECLARATION
#include "moe_runtime/moert_coll_gpu_abi.def"
  } else {
#define MOERT_ABI_ARG(kind, ctype, name)
#define MOERT_ABI_FUNCTION PRINT_DECLARATION
#include "moe_runtime/moert_mgpu_abi.def"
  }
  return 0;
}
