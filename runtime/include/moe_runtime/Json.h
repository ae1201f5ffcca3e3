//===- Json.h - a small, strict JSON reader and writer helpers --*- C++ -*-===//
//
// Enough JSON for artifact metadata (RFC 8259): objects, arrays, strings with
// every escape (\uXXXX incl. surrogate pairs, emitted as UTF-8), integers,
// floats, true/false/null. Malformed, truncated or absurdly nested input is an
// error with a line and column, never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_JSON_H
#define MOE_RUNTIME_JSON_H

#include "moe_runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moert {

class JsonValue {
public:
  enum class Kind { Null, Bool, Int, Double, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolValue = false;
  int64_t intValue = 0;     // Kind::Int
  double doubleValue = 0.0; // Kind::Double (and Kind::Int, converted)
  std::string stringValue;
  std::vector<JsonValue> elements;     // Kind::Array
  std::vector<std::string> keys;       // Kind::Object, in file order
  std::vector<JsonValue> values;       // Kind::Object, parallel to keys

  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isInt() const { return kind == Kind::Int; }
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Double; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  /// Member of an object, or null if absent (or not an object).
  const JsonValue *get(const std::string &key) const;
  /// "object", "array", "string", "integer", "number", "true/false", "null".
  const char *kindName() const;
};

/// Parse a complete JSON document (trailing garbage is an error).
Status parseJson(const std::string &text, JsonValue *out);

/// A JSON string literal (with quotes) for `s`.
std::string jsonQuote(const std::string &s);
/// A JSON number for `v`; NaN and infinities, which JSON lacks, become the
/// strings "NaN", "Infinity", "-Infinity". Finite values round-trip exactly.
std::string jsonNumber(double v);

} // namespace moert

#endif // MOE_RUNTIME_JSON_H
