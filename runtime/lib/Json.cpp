//===- Json.cpp - a small, strict JSON reader -----------------------------===//

#include "moe_runtime/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace moert {

const JsonValue *JsonValue::get(const std::string &key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key)
      return &values[i];
  return nullptr;
}

const char *JsonValue::kindName() const {
  switch (kind) {
  case Kind::Null: return "null";
  case Kind::Bool: return "a boolean";
  case Kind::Int: return "an integer";
  case Kind::Double: return "a number";
  case Kind::String: return "a string";
  case Kind::Array: return "an array";
  case Kind::Object: return "an object";
  }
  return "?";
}

namespace {

constexpr int kMaxDepth = 256;

class Parser {
public:
  explicit Parser(const std::string &text) : text_(text) {}

  Status parseDocument(JsonValue *out) {
    skipWhitespace();
    MOERT_TRY(parseValue(out, 0));
    skipWhitespace();
    if (pos_ != text_.size())
      return errorHere("unexpected data after the JSON value");
    return Status::success();
  }

private:
  const std::string &text_;
  size_t pos_ = 0;

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }

  Status errorAt(size_t offset, const std::string &what) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return Status::error(format("line %zu, column %zu: %s", line, col, what.c_str()));
  }
  Status errorHere(const std::string &what) const { return errorAt(pos_, what); }
  Status unexpected(const char *expected) const {
    if (atEnd())
      return errorHere(format("unexpected end of input (truncated?); expected %s",
                              expected));
    unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x20 && c < 0x7F)
      return errorHere(format("unexpected '%c'; expected %s", c, expected));
    return errorHere(format("unexpected byte 0x%02x; expected %s", c, expected));
  }

  void skipWhitespace() {
    while (!atEnd()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      ++pos_;
    }
  }

  Status expectLiteral(const char *word, JsonValue *out, JsonValue::Kind kind,
                       bool b) {
    size_t start = pos_;
    for (const char *p = word; *p; ++p, ++pos_) {
      if (atEnd() || text_[pos_] != *p) {
        pos_ = start;
        return unexpected("a JSON value");
      }
    }
    out->kind = kind;
    out->boolValue = b;
    return Status::success();
  }

  Status parseValue(JsonValue *out, int depth) {
    if (depth > kMaxDepth)
      return errorHere(format("nesting deeper than %d levels", kMaxDepth));
    switch (peek()) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"':
      out->kind = JsonValue::Kind::String;
      return parseString(&out->stringValue);
    case 't':
      return expectLiteral("true", out, JsonValue::Kind::Bool, true);
    case 'f':
      return expectLiteral("false", out, JsonValue::Kind::Bool, false);
    case 'n':
      return expectLiteral("null", out, JsonValue::Kind::Null, false);
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber(out);
      return unexpected("a JSON value");
    }
  }

  Status parseObject(JsonValue *out, int depth) {
    out->kind = JsonValue::Kind::Object;
    ++pos_; // '{'
    skipWhitespace();
    if (peek() == '}') {
      ++pos_;
      return Status::success();
    }
    for (;;) {
      skipWhitespace();
      if (peek() != '"')
        return unexpected("a string (object key)");
      size_t keyPos = pos_;
      std::string key;
      MOERT_TRY(parseString(&key));
      for (const std::string &k : out->keys)
        if (k == key)
          return errorAt(keyPos, "duplicate key " + jsonQuote(key));
      skipWhitespace();
      if (peek() != ':')
        return unexpected("':'");
      ++pos_;
      skipWhitespace();
      out->keys.push_back(std::move(key));
      out->values.emplace_back();
      MOERT_TRY(parseValue(&out->values.back(), depth + 1));
      skipWhitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return Status::success();
      }
      return unexpected("',' or '}'");
    }
  }

  Status parseArray(JsonValue *out, int depth) {
    out->kind = JsonValue::Kind::Array;
    ++pos_; // '['
    skipWhitespace();
    if (peek() == ']') {
      ++pos_;
      return Status::success();
    }
    for (;;) {
      skipWhitespace();
      out->elements.emplace_back();
      MOERT_TRY(parseValue(&out->elements.back(), depth + 1));
      skipWhitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return Status::success();
      }
      return unexpected("',' or ']'");
    }
  }

  static int hexDigit(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  Status parseHex4(unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int d = hexDigit(peek());
      if (atEnd() || d < 0)
        return unexpected("a hex digit in a \\u escape");
      v = v * 16 + static_cast<unsigned>(d);
      ++pos_;
    }
    *out = v;
    return Status::success();
  }

  static void appendUtf8(std::string *s, unsigned cp) {
    if (cp < 0x80) {
      s->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Status parseString(std::string *out) {
    size_t start = pos_;
    ++pos_; // opening quote
    out->clear();
    for (;;) {
      if (atEnd())
        return errorAt(start, "unterminated string (truncated?)");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return Status::success();
      }
      if (c < 0x20)
        return errorHere(format("control character 0x%02x in a string", c));
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        ++pos_;
        continue;
      }
      ++pos_; // backslash
      if (atEnd())
        return errorAt(start, "unterminated string (truncated?)");
      char e = text_[pos_++];
      switch (e) {
      case '"': out->push_back('"'); break;
      case '\\': out->push_back('\\'); break;
      case '/': out->push_back('/'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        size_t escPos = pos_ - 2;
        unsigned cp = 0;
        MOERT_TRY(parseHex4(&cp));
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (peek() != '\\' || pos_ + 1 >= text_.size() || text_[pos_ + 1] != 'u')
            return errorAt(escPos, "unpaired UTF-16 high surrogate in \\u escape");
          pos_ += 2;
          unsigned lo = 0;
          MOERT_TRY(parseHex4(&lo));
          if (lo < 0xDC00 || lo > 0xDFFF)
            return errorAt(escPos, "invalid UTF-16 surrogate pair in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return errorAt(escPos, "unpaired UTF-16 low surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos_;
        return errorHere(format("invalid escape '\\%c' in a string",
                                (e >= 0x20 && e < 0x7F) ? e : '?'));
      }
    }
  }

  Status parseNumber(JsonValue *out) {
    size_t start = pos_;
    bool isInteger = true;
    if (peek() == '-')
      ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    } else {
      return unexpected("a digit");
    }
    if (peek() == '.') {
      isInteger = false;
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9'))
        return unexpected("a digit after '.'");
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      isInteger = false;
      ++pos_;
      if (peek() == '+' || peek() == '-')
        ++pos_;
      if (!(peek() >= '0' && peek() <= '9'))
        return unexpected("a digit in the exponent");
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    }
    std::string literal = text_.substr(start, pos_ - start);
    if (isInteger) {
      errno = 0;
      char *end = nullptr;
      long long v = std::strtoll(literal.c_str(), &end, 10);
      if (errno == 0 && end && *end == '\0') {
        out->kind = JsonValue::Kind::Int;
        out->intValue = v;
        out->doubleValue = static_cast<double>(v);
        return Status::success();
      }
      // Out of int64 range: keep it as a double.
    }
    errno = 0;
    char *end = nullptr;
    double d = std::strtod(literal.c_str(), &end);
    if (!end || *end != '\0')
      return errorAt(start, "malformed number " + literal);
    if (!std::isfinite(d))
      return errorAt(start, "number out of range: " + literal);
    out->kind = JsonValue::Kind::Double;
    out->doubleValue = d;
    return Status::success();
  }
};

} // namespace

Status parseJson(const std::string &text, JsonValue *out) {
  *out = JsonValue();
  Parser p(text);
  return p.parseDocument(out);
}

std::string jsonQuote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    default:
      if (c < 0x20)
        out += format("\\u%04x", c);
      else
        out.push_back(static_cast<char>(c));
    }
  }
  out += "\"";
  return out;
}

std::string jsonNumber(double v) {
  if (std::isnan(v))
    return "\"NaN\"";
  if (std::isinf(v))
    return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  // The shortest of %.15g/%.16g/%.17g that reads back as the same double.
  for (int digits = 15; digits < 17; ++digits) {
    std::string s = format("%.*g", digits, v);
    if (std::strtod(s.c_str(), nullptr) == v)
      return s;
  }
  return format("%.17g", v);
}

} // namespace moert
