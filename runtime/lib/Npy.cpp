//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "moe_runtime/Npy.h"

#include "moe_runtime/FileUtil.h"

#include <cmath>
#include <limits>

namespace moert {

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

size_t NpyArray::numElements() const {
  size_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<size_t>(d);
  return n;
}

std::string NpyArray::typeName() const {
  switch (kind) {
  case 'b':
    return "bool";
  case 'f':
    return format("float%zu", itemSize * 8);
  case 'i':
    return format("int%zu", itemSize * 8);
  case 'u':
    return format("uint%zu", itemSize * 8);
  default:
    return descr;
  }
}

namespace {

/// Parser for the header: a Python dict literal such as
///   {'descr': '<f4', 'fortran_order': False, 'shape': (64, 32), }
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : s_(text) {}

  Status parse(std::string *descr, bool *fortran, std::vector<int64_t> *shape) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    skip();
    if (!consume('{'))
      return err("expected '{'");
    for (;;) {
      skip();
      if (consume('}'))
        break;
      std::string key;
      MOERT_TRY(parseString(&key));
      skip();
      if (!consume(':'))
        return err("expected ':'");
      skip();
      if (key == "descr") {
        MOERT_TRY(parseString(descr));
        haveDescr = true;
      } else if (key == "fortran_order") {
        MOERT_TRY(parseBool(fortran));
        haveFortran = true;
      } else if (key == "shape") {
        MOERT_TRY(parseTuple(shape));
        haveShape = true;
      } else {
        return err("unknown key '" + key + "'");
      }
      skip();
      if (consume(','))
        continue;
      skip();
      if (consume('}'))
        break;
      return err("expected ',' or '}'");
    }
    if (!haveDescr || !haveFortran || !haveShape)
      return err("missing 'descr', 'fortran_order' or 'shape'");
    return Status::success();
  }

private:
  const std::string &s_;
  size_t pos_ = 0;

  Status err(const std::string &what) const {
    return Status::error(format("malformed .npy header (%s at offset %zu)", what.c_str(), pos_));
  }
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n'))
      ++pos_;
  }
  bool consume(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status parseString(std::string *out) {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"'))
      return err("expected a string");
    char q = s_[pos_++];
    size_t end = s_.find(q, pos_);
    if (end == std::string::npos)
      return err("unterminated string");
    *out = s_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return Status::success();
  }
  Status parseBool(bool *out) {
    if (s_.compare(pos_, 4, "True") == 0) {
      pos_ += 4;
      *out = true;
      return Status::success();
    }
    if (s_.compare(pos_, 5, "False") == 0) {
      pos_ += 5;
      *out = false;
      return Status::success();
    }
    return err("expected True or False");
  }
  Status parseTuple(std::vector<int64_t> *out) {
    out->clear();
    if (!consume('('))
      return err("expected '('");
    for (;;) {
      skip();
      if (consume(')'))
        return Status::success();
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9')
        return err("expected a dimension");
      int64_t v = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        if (v > (std::numeric_limits<int64_t>::max() - 9) / 10)
          return err("dimension too large");
        v = v * 10 + (s_[pos_++] - '0');
      }
      // numpy writes "5L" in Python 2 era files.
      consume('L');
      out->push_back(v);
      if (out->size() > 64)
        return err("too many dimensions");
      skip();
      if (consume(','))
        continue;
      skip();
      if (consume(')'))
        return Status::success();
      return err("expected ',' or ')'");
    }
  }
};

uint32_t readLE(const std::string &s, size_t off, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(s[off + static_cast<size_t>(i)]);
  return v;
}

/// The DType stored like a float ('f') or signed int ('i') .npy element of
/// `itemSize` bytes.
DType storageDType(char kind, size_t itemSize) {
  if (kind == 'f')
    return itemSize == 2 ? DType::F16 : itemSize == 4 ? DType::F32 : DType::F64;
  return itemSize == 1 ? DType::I8 : itemSize == 4 ? DType::I32 : DType::I64;
}

} // namespace

Status readNpy(const std::string &path, NpyArray *out) {
  std::string file;
  MOERT_TRY(readFile(path, &file));
  Status bad = Status::error(path + ": not a .npy file (bad magic)");
  if (file.size() < 10 || file.compare(0, 6, "\x93NUMPY") != 0)
    return bad;
  int major = static_cast<unsigned char>(file[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = readLE(file, 8, 2);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12)
      return Status::error(path + ": truncated .npy header");
    headerLen = readLE(file, 8, 4);
    headerStart = 12;
  } else {
    return Status::error(format("%s: unsupported .npy format version %d.%d", path.c_str(),
                                major, static_cast<unsigned char>(file[7])));
  }
  if (headerLen > file.size() - headerStart)
    return Status::error(path + ": truncated .npy header");
  std::string header = file.substr(headerStart, headerLen);
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  MOERT_TRY(HeaderParser(header).parse(&descr, &fortran, &shape).withPrefix(path));

  NpyArray a;
  a.descr = descr;
  a.shape = shape;
  // descr: byte order ('<' little, '|' not applicable, '=' native) + kind + size.
  bool known = descr.size() == 3 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '=');
  if (known) {
    std::string ks = descr.substr(1);
    if (ks == "f2" || ks == "f4" || ks == "f8" || ks == "i1" || ks == "i4" ||
        ks == "i8" || ks == "u1" || ks == "b1") {
      a.kind = ks[0];
      a.itemSize = static_cast<size_t>(ks[1] - '0');
    } else {
      known = false;
    }
  }
  if (!known) {
    if (!descr.empty() && descr[0] == '>')
      return Status::error(path + ": big-endian .npy data ('" + descr +
                           "') is not supported; save it little-endian");
    return Status::error(path + ": unsupported .npy dtype '" + descr +
                         "' (supported: float16, float32, float64, int8, int32, "
                         "int64, uint8, bool)");
  }
  if (fortran && shape.size() > 1)
    return Status::error(path + ": Fortran-order .npy data is not supported; save it "
                                "in C order (numpy.ascontiguousarray)");
  size_t count = 1;
  for (int64_t d : shape) {
    if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d))
      return Status::error(path + ": .npy shape too large");
    count *= static_cast<size_t>(d);
  }
  if (count > std::numeric_limits<size_t>::max() / a.itemSize)
    return Status::error(path + ": .npy shape too large");
  size_t bytes = count * a.itemSize;
  size_t dataStart = headerStart + headerLen;
  size_t have = file.size() - dataStart;
  if (have < bytes)
    return Status::error(format("%s: truncated .npy data: shape %s of %s needs %zu bytes, "
                                "the file has %zu",
                                path.c_str(), shapeToString(shape).c_str(),
                                a.typeName().c_str(), bytes, have));
  if (have > bytes)
    return Status::error(format("%s: %zu unexpected bytes after the .npy data", path.c_str(),
                                have - bytes));
  a.data = file.substr(dataStart);
  *out = std::move(a);
  return Status::success();
}

Status convertNpyTo(const NpyArray &src, DType t, void *dstVoid) {
  size_t n = src.numElements();
  unsigned char *dst = static_cast<unsigned char *>(dstVoid);
  size_t esize = dtypeSize(t);
  const char *p = src.data.data();
  // uint8 and bool elements are plain bytes; float and int elements are
  // stored like the DType of their kind and size.
  bool isByte = src.kind == 'u' || src.kind == 'b';
  DType srcType = storageDType(src.kind, src.itemSize);
  // Element i of a float source.
  auto asDouble = [&](size_t i) { return loadAsDouble(srcType, p + i * src.itemSize); };
  // Element i of any other source, exactly.
  auto asInt = [&](size_t i) -> int64_t {
    const char *e = p + i * src.itemSize;
    return isByte ? static_cast<unsigned char>(*e) : loadAsInt(srcType, e);
  };

  if (isFloatDType(t)) {
    for (size_t i = 0; i < n; ++i) {
      double v = src.kind == 'f' ? asDouble(i) : static_cast<double>(asInt(i));
      storeFloat(t, v, dst + i * esize);
    }
    return Status::success();
  }

  int64_t lo, hi;
  switch (t) {
  case DType::I64:
    lo = std::numeric_limits<int64_t>::min();
    hi = std::numeric_limits<int64_t>::max();
    break;
  case DType::I32:
    lo = std::numeric_limits<int32_t>::min();
    hi = std::numeric_limits<int32_t>::max();
    break;
  case DType::I8:
    lo = -128;
    hi = 127;
    break;
  default: // I1
    lo = 0;
    hi = 1;
    break;
  }
  for (size_t i = 0; i < n; ++i) {
    int64_t v;
    if (src.kind == 'f') {
      double d = asDouble(i);
      // 2^63 is the first double past the int64 range.
      if (!(d == std::floor(d)) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
        return Status::error(format("element %zu (%.9g) is not an integer", i, d));
      v = static_cast<int64_t>(d);
    } else {
      v = asInt(i);
    }
    if (v < lo || v > hi) {
      if (t == DType::I1)
        return Status::error(format("element %zu (%lld) is not 0 or 1", i,
                                    static_cast<long long>(v)));
      return Status::error(format("element %zu (%lld) is out of range for %s", i,
                                  static_cast<long long>(v), dtypeName(t)));
    }
    storeInt(t, v, dst + i * esize);
  }
  return Status::success();
}

const char *npyDescrFor(DType t) {
  switch (t) {
  case DType::F64: return "<f8";
  case DType::F32:
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::F8E8M0:
    return "<f4";
  case DType::I64: return "<i8";
  case DType::I32: return "<i4";
  case DType::I8: return "|i1";
  case DType::I1: return "|b1";
  }
  return "<f4";
}

Status writeNpy(const std::string &path, DType t, const std::vector<int64_t> &shape,
                const void *data) {
  size_t count = 1;
  for (int64_t d : shape)
    count *= static_cast<size_t>(d);
  std::string dict = format("{'descr': '%s', 'fortran_order': False, 'shape': (",
                            npyDescrFor(t));
  for (size_t i = 0; i < shape.size(); ++i) {
    dict += std::to_string(shape[i]);
    if (shape.size() == 1 || i + 1 < shape.size())
      dict += shape.size() == 1 ? "," : ", ";
  }
  dict += "), }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes and the
  // header ends with '\n' (what numpy writes).
  const size_t prefix = 10;
  size_t total = prefix + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict.push_back('\n');
  if (dict.size() > 65535)
    return Status::error(path + ": shape too long for a .npy 1.0 header");
  std::string head = "\x93NUMPY";
  head.push_back('\x01');
  head.push_back('\x00');
  head.push_back(static_cast<char>(dict.size() & 0xFF));
  head.push_back(static_cast<char>(dict.size() >> 8));
  head += dict;

  const void *payload = data;
  size_t bytes = count * dtypeSize(t);
  std::vector<float> widened;
  if (isNarrowFloatDType(t)) {
    widened.resize(count);
    const unsigned char *src = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < count; ++i)
      widened[i] = static_cast<float>(loadAsDouble(t, src + i * dtypeSize(t))); // exact
    payload = widened.data();
    bytes = count * sizeof(float);
  }
  return writeFileAtomic(path, {{head.data(), head.size()}, {payload, bytes}});
}

} // namespace moert
