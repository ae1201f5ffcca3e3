//===- RuntimeUnitTests.cpp - unit tests of libmoe_runtime ----------------===//
//
// Rounding (bf16, f16, fp8) against hand-derived bit patterns, the random
// input scheme against values from an independent implementation (Python,
// exact rational rounding), JSON, .npy and artifact metadata error paths, and
// the C ABI. Run from test/runner/unittests.test; prints "FAIL ..." lines and
// a summary, exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/Artifact.h"
#include "moe_runtime/DType.h"
#include "moe_runtime/EntryBuffers.h"
#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Inputs.h"
#include "moe_runtime/Json.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Timing.h"
#include "moe_runtime/moe_runtime.h"

#include "UnitChecks.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

using namespace moert;
using namespace moert::unittest;

namespace {

uint64_t bitsOf(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// ---- Rounding ----------------------------------------------------------------

void testBF16() {
  EXPECT_EQ_U64(roundToBF16(1.0), 0x3F80);
  EXPECT_EQ_U64(roundToBF16(-2.0), 0xC000);
  EXPECT_EQ_U64(roundToBF16(0.0), 0x0000);
  EXPECT_EQ_U64(roundToBF16(-0.0), 0x8000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ_U64(roundToBF16(1.0 + std::ldexp(1, -8)), 0x3F80);
  // 1 + 3*2^-8 is halfway between 0x3F81 and 0x3F82: even is 0x3F82.
  EXPECT_EQ_U64(roundToBF16(1.0 + 3 * std::ldexp(1, -8)), 0x3F82);
  // Just above the tie rounds up. Rounding via float would first drop the
  // 2^-40 (double rounding) and then tie to 1.0: we round directly.
  EXPECT_EQ_U64(roundToBF16(1.0 + std::ldexp(1, -8) + std::ldexp(1, -40)), 0x3F81);
  // 0.1 = 0x3DCCCCCD as float -> 0x3DCD.
  EXPECT_EQ_U64(roundToBF16(0.1), 0x3DCD);
  // Largest finite (2 - 2^-7) * 2^127 = 0x7F7F; 2^128 - 2^119 (halfway to
  // 2^128) overflows to inf.
  EXPECT_EQ_U64(roundToBF16(std::ldexp(255, 120)), 0x7F7F);
  EXPECT_EQ_U64(roundToBF16(std::ldexp(511, 119)), 0x7F80);
  EXPECT_EQ_U64(roundToBF16(std::ldexp(511, 119) - std::ldexp(1, 100)), 0x7F7F);
  EXPECT_EQ_U64(roundToBF16(-1e39), 0xFF80);
  EXPECT_EQ_U64(roundToBF16(kInf), 0x7F80);
  EXPECT_EQ_U64(roundToBF16(kNaN), 0x7FC0);
  // Subnormals: the smallest is 2^-133; 2^-134 is a tie between 0 and it.
  EXPECT_EQ_U64(roundToBF16(std::ldexp(1, -133)), 0x0001);
  EXPECT_EQ_U64(roundToBF16(std::ldexp(1, -134)), 0x0000);
  EXPECT_EQ_U64(roundToBF16(std::ldexp(3, -135)), 0x0001);
  EXPECT_EQ_U64(roundToBF16(std::ldexp(3, -134)), 0x0002); // 1.5 ulp: tie -> even 2
  EXPECT_EQ_U64(roundToBF16(std::ldexp(1, -126)), 0x0080); // smallest normal
  EXPECT(bf16ToDouble(0x3F81) == 1.0078125);
  EXPECT(bf16ToDouble(0x0001) == std::ldexp(1, -133));
  EXPECT(bf16ToDouble(0xFF80) == -kInf);
  EXPECT(std::isnan(bf16ToDouble(0x7FC1)));
}

// roundToBF16 has a bit-level fast path for normal results: every result
// must still be the nearest bf16 (ties to even), checked against its
// neighbours, over random doubles of every binade from subnormal to overflow.
void testBF16Nearest() {
  SplitMix64 g(42);
  for (int i = 0; i < 200000; ++i) {
    int exponent = static_cast<int>(g.next() % 280) - 140; // 2^-140 .. 2^139
    double mant = 1.0 + static_cast<double>(g.next() >> 11) * 0x1p-53;
    if (i % 7 == 0) // exact ties and near-ties
      mant = 1.0 + static_cast<double>(g.next() % 256) * 0x1p-8 + (i % 14 ? 0x1p-45 : 0.0);
    double x = std::ldexp(mant, exponent) * (g.next() & 1 ? -1.0 : 1.0);
    uint16_t r = roundToBF16(x);
    double v = bf16ToDouble(r);
    if (std::isinf(v)) {
      EXPECT(std::fabs(x) >= std::ldexp(511, 119)); // at or past the overflow tie
      continue;
    }
    uint16_t mag = r & 0x7FFF;
    double up = bf16ToDouble(static_cast<uint16_t>((r & 0x8000) | (mag + 1)));
    double down = mag ? bf16ToDouble(static_cast<uint16_t>((r & 0x8000) | (mag - 1))) : -v;
    double e = std::fabs(x - v), eUp = std::fabs(x - up), eDown = std::fabs(x - down);
    bool nearest = e < eUp && e < eDown;
    bool evenTie = (e == eUp || e == eDown) && (r & 1) == 0;
    if (!(nearest || evenTie)) {
      std::printf("roundToBF16(%a) = 0x%04x is not the nearest bf16\n", x, r);
      EXPECT(false);
      break;
    }
  }
}

void testF16() {
  EXPECT_EQ_U64(roundToF16(1.0), 0x3C00);
  EXPECT_EQ_U64(roundToF16(-2.5), 0xC100);
  EXPECT_EQ_U64(roundToF16(0.1), 0x2E66);
  EXPECT_EQ_U64(roundToF16(65504.0), 0x7BFF);
  EXPECT_EQ_U64(roundToF16(65519.0), 0x7BFF);
  EXPECT_EQ_U64(roundToF16(65520.0), 0x7C00); // halfway to 2^16: ties to inf
  EXPECT_EQ_U64(roundToF16(std::ldexp(1, -24)), 0x0001);
  EXPECT_EQ_U64(roundToF16(std::ldexp(1, -25)), 0x0000);
  EXPECT_EQ_U64(roundToF16(std::ldexp(3, -26)), 0x0001);
  EXPECT_EQ_U64(roundToF16(1.0 + std::ldexp(1, -11)), 0x3C00); // tie -> even
  EXPECT_EQ_U64(roundToF16(1.0 + 3 * std::ldexp(1, -11)), 0x3C02);
  EXPECT_EQ_U64(roundToF16(kNaN), 0x7E00);
  EXPECT(f16ToDouble(0x7BFF) == 65504.0);
  EXPECT(f16ToDouble(0x0001) == std::ldexp(1, -24));
  EXPECT(f16ToDouble(0x3555) == 0.333251953125);
}

void testFP8() {
  // E4M3FN: bias 7, max 448 = 0x7E, NaN = 0x7F, no infinity, saturating.
  EXPECT_EQ_U64(roundToF8E4M3(1.0), 0x38);
  EXPECT_EQ_U64(roundToF8E4M3(-1.0), 0xB8);
  EXPECT_EQ_U64(roundToF8E4M3(448.0), 0x7E);
  EXPECT_EQ_U64(roundToF8E4M3(464.0), 0x7E); // tie 448/480 -> even (448)
  EXPECT_EQ_U64(roundToF8E4M3(1000.0), 0x7E);
  EXPECT_EQ_U64(roundToF8E4M3(-1000.0), 0xFE);
  EXPECT_EQ_U64(roundToF8E4M3(kInf), 0x7E);
  EXPECT_EQ_U64(roundToF8E4M3(-kInf), 0xFE);
  EXPECT_EQ_U64(roundToF8E4M3(kNaN), 0x7F);
  EXPECT_EQ_U64(roundToF8E4M3(1.0625), 0x38); // tie 1.0/1.125 -> even 1.0
  EXPECT_EQ_U64(roundToF8E4M3(1.1875), 0x3A); // tie 1.125/1.25 -> even 1.25
  EXPECT_EQ_U64(roundToF8E4M3(1.07), 0x39);
  EXPECT_EQ_U64(roundToF8E4M3(std::ldexp(1, -9)), 0x01); // smallest subnormal
  EXPECT_EQ_U64(roundToF8E4M3(std::ldexp(1, -10)), 0x00); // tie -> 0
  EXPECT_EQ_U64(roundToF8E4M3(std::ldexp(3, -11)), 0x01);
  EXPECT_EQ_U64(roundToF8E4M3(std::ldexp(1, -6)), 0x08); // smallest normal
  EXPECT_EQ_U64(roundToF8E4M3(0.3), 0x2A); // 0.3 -> 0.3125 = 1.25 * 2^-2
  EXPECT(f8e4m3ToDouble(0x7E) == 448.0);
  EXPECT(f8e4m3ToDouble(0x01) == std::ldexp(1, -9));
  EXPECT(std::isnan(f8e4m3ToDouble(0xFF)));
  EXPECT(f8e4m3ToDouble(0x78) == 256.0); // exponent 15 is a normal exponent

  // E5M2: bias 15, max 57344 = 0x7B, IEEE inf/NaN, saturating.
  EXPECT_EQ_U64(roundToF8E5M2(1.0), 0x3C);
  EXPECT_EQ_U64(roundToF8E5M2(57344.0), 0x7B);
  EXPECT_EQ_U64(roundToF8E5M2(1e6), 0x7B);
  EXPECT_EQ_U64(roundToF8E5M2(-kInf), 0xFB);
  EXPECT_EQ_U64(roundToF8E5M2(kNaN), 0x7E);
  EXPECT_EQ_U64(roundToF8E5M2(std::ldexp(1, -16)), 0x01);
  EXPECT_EQ_U64(roundToF8E5M2(-std::ldexp(1, -16)), 0x81);
  EXPECT_EQ_U64(roundToF8E5M2(1.125), 0x3C); // tie 1.0/1.25 -> even 1.0
  EXPECT_EQ_U64(roundToF8E5M2(1.375), 0x3E); // tie 1.25/1.5 -> even 1.5
  EXPECT(f8e5m2ToDouble(0x7B) == 57344.0);
  EXPECT(f8e5m2ToDouble(0x7C) == kInf);

  // E8M0: 2^(bits - 127), 0xFF NaN.
  EXPECT_EQ_U64(roundToF8E8M0(1.0), 0x7F);
  EXPECT_EQ_U64(roundToF8E8M0(2.9), 0x80);
  EXPECT_EQ_U64(roundToF8E8M0(3.0), 0x81); // tie (1.5 * 2^1) goes up
  EXPECT_EQ_U64(roundToF8E8M0(-0.25), 0x7D);
  EXPECT_EQ_U64(roundToF8E8M0(std::ldexp(1, -127)), 0x00);
  EXPECT_EQ_U64(roundToF8E8M0(1e-300), 0x00);
  EXPECT_EQ_U64(roundToF8E8M0(std::ldexp(1, 127)), 0xFE);
  EXPECT_EQ_U64(roundToF8E8M0(kInf), 0xFE);
  EXPECT_EQ_U64(roundToF8E8M0(kNaN), 0xFF);
  EXPECT(f8e8m0ToDouble(0x00) == std::ldexp(1, -127));
}

void testRoundTrips() {
  // decode -> encode is the identity on every non-NaN pattern.
  int bad = 0;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    double d = bf16ToDouble(static_cast<uint16_t>(b));
    if (!std::isnan(d) && roundToBF16(d) != b)
      ++bad;
    d = f16ToDouble(static_cast<uint16_t>(b));
    if (!std::isnan(d) && roundToF16(d) != b)
      ++bad;
    // bf16 is float's top half: decoding must agree with the float.
    uint32_t u = b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    if (!std::isnan(f) && static_cast<double>(f) != bf16ToDouble(static_cast<uint16_t>(b)))
      ++bad;
  }
  for (uint32_t b = 0; b < 0x100; ++b) {
    uint8_t v = static_cast<uint8_t>(b);
    if (!std::isnan(f8e4m3ToDouble(v)) && roundToF8E4M3(f8e4m3ToDouble(v)) != v)
      ++bad;
    if (!std::isnan(f8e5m2ToDouble(v)) && !std::isinf(f8e5m2ToDouble(v)) &&
        roundToF8E5M2(f8e5m2ToDouble(v)) != v)
      ++bad;
    if (!std::isnan(f8e8m0ToDouble(v)) && roundToF8E8M0(f8e8m0ToDouble(v)) != v)
      ++bad;
  }
  EXPECT(bad == 0);
  // Rounding agrees with the hardware float conversion for bf16's f32 cousin:
  // for f32 values, bf16 rounding = round(f32 bits).
  int mismatch = 0;
  SplitMix64 g(123);
  for (int i = 0; i < 100000; ++i) {
    uint32_t u = static_cast<uint32_t>(g.next());
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f))
      continue;
    uint32_t r = u + 0x7FFFu + ((u >> 16) & 1u); // classic RNE on the bits
    uint16_t expect = static_cast<uint16_t>(r >> 16);
    if ((u & 0x7F800000u) == 0x7F800000u) // inf stays inf
      expect = static_cast<uint16_t>(u >> 16);
    if (roundToBF16(f) != expect)
      ++mismatch;
  }
  EXPECT(mismatch == 0);
}

// ---- Random inputs -----------------------------------------------------------

void testRng() {
  EXPECT_EQ_U64(splitmix64(0), 0xE220A8397B1DCDAFULL);
  SplitMix64 g(0);
  EXPECT_EQ_U64(g.next(), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ_U64(g.next(), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ_U64(g.next(), 0x06C45D188009454FULL);
  EXPECT_EQ_U64(fnv1a64(""), 0xCBF29CE484222325ULL);
  EXPECT_EQ_U64(fnv1a64("a"), 0xAF63DC4C8601EC8CULL);
  EXPECT_EQ_U64(fnv1a64("foobar"), 0x85944171F73967E8ULL);
  EXPECT_EQ_U64(argumentStreamSeed(0, "x"), 0x338262D8F096398FULL);
  EXPECT_EQ_U64(moert_stream_seed(0, "x"), 0x338262D8F096398FULL);

  // Seed 0, argument "x": the first four N(0,1) draws, as doubles and
  // rounded to f32 and bf16 (values from an independent implementation).
  uint64_t s = argumentStreamSeed(0, "x");
  double f64[4];
  EXPECT_OK(fillNormal(f64, DType::F64, 4, 1.0, s));
  EXPECT_EQ_U64(bitsOf(f64[0]), bitsOf(0x1.2cc9a9f881d61p-5));
  EXPECT_EQ_U64(bitsOf(f64[1]), bitsOf(-0x1.1907ee802a905p-2));
  EXPECT_EQ_U64(bitsOf(f64[2]), bitsOf(-0x1.f997696fee8b1p-1));
  EXPECT_EQ_U64(bitsOf(f64[3]), bitsOf(0x1.1649eaf109bdap+0));
  float f32[4];
  EXPECT_OK(fillNormal(f32, DType::F32, 4, 1.0, s));
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ_U64(bitsOf(f32[i]), bitsOf(static_cast<float>(f64[i])));
  uint16_t bf[4];
  EXPECT_OK(fillNormal(bf, DType::BF16, 4, 1.0, s));
  EXPECT(bf16ToDouble(bf[0]) == 0.03662109375);
  EXPECT(bf16ToDouble(bf[1]) == -0.275390625);
  EXPECT(bf16ToDouble(bf[2]) == -0.98828125);
  EXPECT(bf16ToDouble(bf[3]) == 1.0859375);

  // A rank-2 bf16 weight [3, 4] (stddev 1/sqrt(3)), seed 7, argument "w".
  ArgSpec w;
  w.name = "w";
  w.role = Role::Weight;
  w.shape = {3, 4};
  EXPECT(randomStddev(w) == 1.0 / std::sqrt(3.0));
  const uint16_t wExpect[12] = {0x3F4A, 0xBE01, 0x3E96, 0x3F62, 0xBEB3, 0xBF06,
                                0x3E05, 0xBE8B, 0xBE8B, 0x3E25, 0xBF76, 0xBE18};
  uint16_t wGot[12];
  EXPECT_OK(fillNormal(wGot, DType::BF16, 12, randomStddev(w), argumentStreamSeed(7, "w")));
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ_U64(wGot[i], wExpect[i]);

  // N(0, 0.01^2) in e4m3, seed 42, "w": 8% of draws round to 0 and are
  // redrawn (elements 25.. in this stream); no zero survives.
  ArgSpec bias;
  bias.role = Role::Weight;
  bias.shape = {64};
  EXPECT(randomStddev(bias) == 0.01);
  ArgSpec scalarWeight;
  scalarWeight.role = Role::Weight;
  EXPECT(randomStddev(scalarWeight) == 0.01);
  ArgSpec cot;
  cot.role = Role::Cotangent;
  cot.shape = {8, 8};
  EXPECT(randomStddev(cot) == 1.0);
  const uint8_t e4m3Expect[64] = {
      0x88, 0x08, 0x88, 0x01, 0x06, 0x01, 0x87, 0x01, 0x83, 0x08, 0x09, 0x83, 0x83,
      0x0D, 0x82, 0x84, 0x03, 0x06, 0x07, 0x82, 0x83, 0x02, 0x0B, 0x81, 0x07, 0x03,
      0x02, 0x01, 0x02, 0x08, 0x02, 0x82, 0x83, 0x01, 0x83, 0x01, 0x07, 0x02, 0x06,
      0x09, 0x02, 0x03, 0x01, 0x03, 0x86, 0x01, 0x06, 0x82, 0x01, 0x83, 0x05, 0x85,
      0x83, 0x81, 0x85, 0x88, 0x89, 0x83, 0x84, 0x81, 0x02, 0x04, 0x01, 0x01};
  uint8_t e4m3Got[64];
  EXPECT_OK(fillNormal(e4m3Got, DType::F8E4M3, 64, 0.01, argumentStreamSeed(42, "w")));
  int e4m3Bad = 0;
  for (int i = 0; i < 64; ++i)
    e4m3Bad += e4m3Got[i] != e4m3Expect[i] || (e4m3Got[i] & 0x7F) == 0;
  EXPECT(e4m3Bad == 0);

  // An impossible request (every draw rounds to zero) is an error, not a hang.
  uint8_t tiny[4];
  EXPECT_ERROR(fillNormal(tiny, DType::F8E4M3, 4, 1e-9, 1), "rounded to zero");
  int32_t ints[4];
  EXPECT_ERROR(fillNormal(ints, DType::I32, 4, 1.0, 1), "integer type i32");

  // The threaded fill (large counts) equals the element-by-element scheme.
  const size_t n = size_t(1) << 20;
  std::vector<uint16_t> big(n);
  uint64_t bs = argumentStreamSeed(5, "big");
  EXPECT_OK(fillNormal(big.data(), DType::BF16, n, 1.0, bs));
  size_t diff = 0;
  for (size_t i = 0; i < n; i += 997) {
    SplitMix64 eg(elementSeed(bs, i));
    uint16_t v;
    do
      v = roundToBF16(drawStandardNormal(eg));
    while ((v & 0x7FFF) == 0);
    diff += v != big[i];
  }
  EXPECT(diff == 0);
  // Sanity of the distribution: mean ~ 0, variance ~ 1.
  double sum = 0, sq = 0;
  for (uint16_t v : big) {
    double d = bf16ToDouble(v);
    sum += d;
    sq += d * d;
  }
  double mean = sum / n, var = sq / n - mean * mean;
  EXPECT(std::fabs(mean) < 0.01);
  EXPECT(std::fabs(var - 1.0) < 0.01);
}

// ---- JSON ----------------------------------------------------------------------

void testJson() {
  JsonValue v;
  EXPECT_OK(parseJson(R"( {"a": [1, -2, 3.5, 1e3, true, false, null],
      "s": "q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "big": 123456789012345678901234,
      "o": {}} )",
                      &v));
  EXPECT(v.isObject() && v.keys.size() == 4);
  const JsonValue *a = v.get("a");
  EXPECT(a && a->isArray() && a->elements.size() == 7);
  if (a && a->elements.size() == 7) {
    EXPECT(a->elements[0].isInt() && a->elements[0].intValue == 1);
    EXPECT(a->elements[1].isInt() && a->elements[1].intValue == -2);
    EXPECT(a->elements[2].kind == JsonValue::Kind::Double && a->elements[2].doubleValue == 3.5);
    EXPECT(a->elements[3].kind == JsonValue::Kind::Double && a->elements[3].doubleValue == 1000);
    EXPECT(a->elements[4].isBool() && a->elements[4].boolValue);
    EXPECT(a->elements[6].isNull());
  }
  const JsonValue *s = v.get("s");
  EXPECT(s && s->stringValue == "q\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80");
  const JsonValue *big = v.get("big");
  EXPECT(big && big->kind == JsonValue::Kind::Double && big->doubleValue > 1e23);

  EXPECT_ERROR(parseJson("", &v), "unexpected end of input");
  EXPECT_ERROR(parseJson("{\"a\": [1, 2", &v), "line 1, column 12: unexpected end of input");
  EXPECT_ERROR(parseJson("{\"a\": \"abc", &v), "unterminated string");
  EXPECT_ERROR(parseJson("{\"a\": 1,}", &v), "expected a string (object key)");
  EXPECT_ERROR(parseJson("[1 2]", &v), "expected ',' or ']'");
  EXPECT_ERROR(parseJson("{\"a\": 1}\n x", &v), "line 2, column 2: unexpected data");
  EXPECT_ERROR(parseJson("{\"a\": 1, \"a\": 2}", &v), "duplicate key \"a\"");
  EXPECT_ERROR(parseJson("[01]", &v), "expected ',' or ']'");
  EXPECT_ERROR(parseJson("[1.]", &v), "digit after '.'");
  EXPECT_ERROR(parseJson("[1e999]", &v), "out of range");
  EXPECT_ERROR(parseJson("[tru]", &v), "expected a JSON value");
  EXPECT_ERROR(parseJson("[\"\\x\"]", &v), "invalid escape");
  EXPECT_ERROR(parseJson("[\"\\ud800\"]", &v), "unpaired UTF-16 high surrogate");
  EXPECT_ERROR(parseJson("[\"a\nb\"]", &v), "control character");
  EXPECT_ERROR(parseJson(std::string("[\0]", 3), &v), "unexpected byte 0x00");
  EXPECT_ERROR(parseJson(std::string(100000, '['), &v), "nesting deeper than");

  EXPECT(jsonQuote("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT(jsonNumber(0.1) == "0.1");
  EXPECT(jsonNumber(-2.5e-7) == "-2.5e-07");
  EXPECT(jsonNumber(kNaN) == "\"NaN\"");
  EXPECT(jsonNumber(-kInf) == "\"-Infinity\"");
}

// ---- .npy -------------------------------------------------------------------------

std::string tempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/moert-unittest-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    return "";
  return buf.data();
}

void writeRaw(const std::string &path, const std::string &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

std::string npyBytes(const std::string &dict, const std::string &data) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64)
    h.push_back(' ');
  h.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(h.size() & 0xFF));
  out.push_back(static_cast<char>(h.size() >> 8));
  return out + h + data;
}

void testNpy(const std::string &dir) {
  // Round trip of every dtype (narrow floats come back as float32).
  std::vector<int64_t> shape = {2, 3};
  uint16_t bf[6];
  for (int i = 0; i < 6; ++i)
    bf[i] = roundToBF16(0.5 * i - 1.1);
  std::string p = joinPath(dir, "bf.npy");
  EXPECT_OK(writeNpy(p, DType::BF16, shape, bf));
  NpyArray a;
  EXPECT_OK(readNpy(p, &a));
  EXPECT(a.descr == "<f4" && a.shape == shape && a.data.size() == 24);
  uint16_t back[6];
  EXPECT_OK(convertNpyTo(a, DType::BF16, back));
  EXPECT(std::memcmp(bf, back, sizeof bf) == 0);
  std::string file;
  EXPECT_OK(readFile(p, &file));
  EXPECT(file.size() == 128 + 24); // header padded to 64 bytes
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT(file.compare(10, dict.size(), dict) == 0 && file[127] == '\n');

  int64_t scalar = -7;
  p = joinPath(dir, "scalar.npy");
  EXPECT_OK(writeNpy(p, DType::I64, {}, &scalar));
  EXPECT_OK(readNpy(p, &a));
  EXPECT(a.descr == "<i8" && a.shape.empty() && a.numElements() == 1);
  int32_t i32;
  EXPECT_OK(convertNpyTo(a, DType::I32, &i32));
  EXPECT(i32 == -7);
  EXPECT_ERROR(convertNpyTo(a, DType::I1, &i32), "element 0 (-7) is not 0 or 1");

  uint8_t b1[3] = {1, 0, 1};
  p = joinPath(dir, "b.npy");
  EXPECT_OK(writeNpy(p, DType::I1, {3}, b1));
  EXPECT_OK(readFile(p, &file));
  EXPECT(file.find("'descr': '|b1'") != std::string::npos &&
         file.find("'shape': (3,)") != std::string::npos);

  // Conversions from every accepted source type.
  p = joinPath(dir, "f2.npy");
  writeRaw(p, npyBytes("{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
                       std::string("\x00\x3c\x00\xc1", 4)));
  EXPECT_OK(readNpy(p, &a));
  float f[2];
  EXPECT_OK(convertNpyTo(a, DType::F32, f));
  EXPECT(f[0] == 1.0f && f[1] == -2.5f);
  EXPECT_ERROR(convertNpyTo(a, DType::I32, &i32), "element 1 (-2.5) is not an integer");
  p = joinPath(dir, "u1.npy");
  writeRaw(p, npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }",
                       std::string("\xff\x01", 2)));
  EXPECT_OK(readNpy(p, &a));
  EXPECT_OK(convertNpyTo(a, DType::F32, f));
  EXPECT(f[0] == 255.0f && f[1] == 1.0f);
  int8_t i8[2];
  EXPECT_ERROR(convertNpyTo(a, DType::I8, i8), "element 0 (255) is out of range for i8");

  // Errors.
  p = joinPath(dir, "bad.npy");
  writeRaw(p, "not a numpy file at all");
  EXPECT_ERROR(readNpy(p, &a), "not a .npy file (bad magic)");
  writeRaw(p, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
                       std::string(12, '\0')));
  EXPECT_ERROR(readNpy(p, &a), "truncated .npy data: shape [4] of float32 needs 16 bytes");
  writeRaw(p, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
                       std::string(5, '\0')));
  EXPECT_ERROR(readNpy(p, &a), "1 unexpected bytes after");
  writeRaw(p, npyBytes("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                       std::string(4, '\0')));
  EXPECT_ERROR(readNpy(p, &a), "big-endian");
  writeRaw(p, npyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                       std::string(8, '\0')));
  EXPECT_ERROR(readNpy(p, &a), "unsupported .npy dtype '<c8'");
  writeRaw(p, npyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                       std::string(16, '\0')));
  EXPECT_ERROR(readNpy(p, &a), "Fortran-order");
  writeRaw(p, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2 }",
                       std::string(16, '\0')));
  EXPECT_ERROR(readNpy(p, &a), "malformed .npy header");
  writeRaw(p, std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 18));
  EXPECT_ERROR(readNpy(p, &a), "truncated .npy header");
  EXPECT_ERROR(readNpy(joinPath(dir, "missing.npy"), &a), "No such file");
  EXPECT_ERROR(readNpy(dir, &a), "not a regular file");

  // The C ABI.
  float cf[2] = {0.5f, -0.25f};
  int64_t cshape[1] = {2};
  p = joinPath(dir, "c.npy");
  EXPECT(moert_npy_write(p.c_str(), MOERT_F32, cshape, 1, cf) == 0);
  double cd[2] = {0, 0};
  EXPECT(moert_npy_read(p.c_str(), MOERT_F64, cshape, 1, cd) == 0);
  EXPECT(cd[0] == 0.5 && cd[1] == -0.25);
  int64_t wrong[1] = {3};
  EXPECT(moert_npy_read(p.c_str(), MOERT_F64, wrong, 1, cd) == -1);
  EXPECT(std::string(moert_last_error()).find("shape [2], expected [3]") != std::string::npos);
}

// ---- Artifact metadata -----------------------------------------------------------

Status specFrom(const std::string &json) {
  JsonValue v;
  MOERT_TRY(parseJson(json, &v));
  ArtifactSpec spec;
  return parseArtifactSpec(v, &spec);
}

void testArtifactSpec() {
  const char *good = R"({"format": "moe-artifact-1", "target": "cpu", "entries": [
      {"name": "f", "symbol": "f_packed", "flops": 10, "args": [
        {"name": "x", "role": "input", "io": "in", "shape": [2, 3], "dtype": "bf16"},
        {"name": "l", "role": "output", "io": "out", "shape": [], "dtype": "f32"}]}]})";
  JsonValue v;
  EXPECT_OK(parseJson(good, &v));
  ArtifactSpec spec;
  EXPECT_OK(parseArtifactSpec(v, &spec));
  EXPECT(spec.entries.size() == 1 && spec.entries[0].flops == 10);
  if (spec.entries.size() == 1 && spec.entries[0].args.size() == 2) {
    EXPECT(spec.entries[0].args[0].numBytes == 12);
    EXPECT(spec.entries[0].args[1].numElements == 1 && spec.entries[0].args[1].numBytes == 4);
  }
  EXPECT(targetDeviceKind("sm_90a") == "gpu" && targetDeviceKind("cpu") == "cpu" &&
         targetDeviceKind("tpu") == "");

  auto with = [&](const std::string &from, const std::string &to) {
    std::string s = good;
    size_t at = s.find(from);
    if (at != std::string::npos)
      s.replace(at, from.size(), to);
    return s;
  };
  EXPECT_ERROR(specFrom("[]"), "expected a JSON object");
  EXPECT_ERROR(specFrom(with("moe-artifact-1", "moe-artifact-9")), "unsupported artifact format");
  EXPECT_ERROR(specFrom(with("\"cpu\"", "\"tpu\"")), "unknown target \"tpu\"");
  EXPECT_ERROR(specFrom(with("\"bf16\"", "\"bf17\"")), "entries[0].args[0].dtype: unknown dtype");
  EXPECT_ERROR(specFrom(with("[2, 3]", "[2, -3]")), "entries[0].args[0].shape[1]: expected a non-negative");
  EXPECT_ERROR(specFrom(with("[2, 3]", "[2, 3.5]")), "entries[0].args[0].shape[1]");
  EXPECT_ERROR(specFrom(with("[2, 3]", "[4294967296, 4294967296]")), "shape too large");
  EXPECT_ERROR(specFrom(with("\"io\": \"in\"", "\"io\": \"inout\"")), "expected \"in\" or \"out\"");
  EXPECT_ERROR(specFrom(with("\"role\": \"input\"", "\"role\": \"bias\"")), "unknown role \"bias\"");
  EXPECT_ERROR(specFrom(with("\"name\": \"l\"", "\"name\": \"x\"")), "duplicate argument \"x\"");
  EXPECT_ERROR(specFrom(with("\"name\": \"x\"", "\"name\": \"../x\"")), "invalid name");
  EXPECT_ERROR(specFrom(with("\"symbol\": \"f_packed\", ", "")), "entries[0]: missing \"symbol\"");
  EXPECT_ERROR(specFrom(with("\"flops\": 10", "\"flops\": \"ten\"")), "entries[0].flops");
  EXPECT_ERROR(specFrom(with("\"shape\": []", "\"shape\": 1")), "shape: expected an array");

  // Expert parallelism: grids, split_dim, partial.
  EXPECT(spec.grids.empty() && spec.worldSize() == 1);
  std::string ep = with("\"entries\"", "\"grids\": [{\"name\": \"ep\", \"shape\": [4]}, "
                                       "{\"name\": \"dp\", \"shape\": [1, 2]}], \"entries\"");
  std::string epSplit = ep;
  epSplit.replace(epSplit.find("\"dtype\": \"bf16\""), 15, "\"dtype\": \"bf16\", \"split_dim\": 1");
  epSplit.replace(epSplit.find("\"dtype\": \"f32\""), 14,
                  "\"dtype\": \"f32\", \"partial\": \"sum\"");
  EXPECT_OK(parseJson(epSplit, &v));
  EXPECT_OK(parseArtifactSpec(v, &spec));
  EXPECT(spec.grids.size() == 2 && spec.grids[0].name == "ep" && spec.worldSize() == 8);
  if (spec.entries.size() == 1 && spec.entries[0].args.size() == 2) {
    EXPECT(spec.entries[0].args[0].splitDim == 1 && !spec.entries[0].args[0].partialSum);
    EXPECT(spec.entries[0].args[1].splitDim == -1 && spec.entries[0].args[1].partialSum);
  }
  auto epWith = [&](const std::string &from, const std::string &to) {
    std::string s = epSplit;
    size_t at = s.find(from);
    if (at != std::string::npos)
      s.replace(at, from.size(), to);
    return s;
  };
  EXPECT_ERROR(specFrom(epWith("\"split_dim\": 1", "\"split_dim\": 2")),
               "entries[0].args[0].split_dim: dimension 2 of a tensor of rank 2");
  EXPECT_ERROR(specFrom(epWith("\"split_dim\": 1", "\"split_dim\": -1")),
               "entries[0].args[0].split_dim: expected a non-negative integer");
  EXPECT_ERROR(specFrom(epWith("\"split_dim\": 1", "\"split_dim\": \"0\"")),
               "entries[0].args[0].split_dim: expected a non-negative integer, found a string");
  EXPECT_ERROR(specFrom(epWith("\"partial\": \"sum\"", "\"partial\": \"mean\"")),
               "entries[0].args[1].partial: expected \"sum\", found \"mean\"");
  EXPECT_ERROR(specFrom(epWith("\"split_dim\": 1", "\"split_dim\": 1, \"partial\": \"sum\"")),
               "entries[0].args[0]: both \"split_dim\" and \"partial\"");
  EXPECT_ERROR(specFrom(epWith("[4]", "[0]")), "grids[0].shape[0]: a grid axis has 1 to 65536");
  EXPECT_ERROR(specFrom(epWith("[4]", "[]")), "grids[0].shape: expected a non-empty array");
  EXPECT_ERROR(specFrom(epWith("\"name\": \"dp\"", "\"name\": \"ep\"")),
               "grids[1].name: duplicate grid \"ep\"");
  EXPECT_ERROR(specFrom(epWith("{\"name\": \"ep\", ", "{")), "grids[0]: missing \"name\"");
  EXPECT_ERROR(specFrom(with("\"entries\"", "\"grids\": {}, \"entries\"")),
               "grids: expected an array, found an object");

  ArtifactPaths p = artifactPathsFor("dir/a.so");
  EXPECT(p.stem == "dir/a" && p.json == "dir/a.json" && p.so == "dir/a.so");
  p = artifactPathsFor("dir/a.json");
  EXPECT(p.stem == "dir/a");
  p = artifactPathsFor("dir/a");
  EXPECT(p.so == "dir/a.so");
}

// ---- VJP entries and inputs ------------------------------------------------------

void testVjp(const std::string &dir) {
  EXPECT(vjpForwardEntryName("layer_bwd") == "layer_fwd");
  EXPECT(vjpForwardEntryName("a_b_bwd") == "a_b_fwd");
  EXPECT(vjpForwardEntryName("_bwd") == "");
  EXPECT(vjpForwardEntryName("layer") == "");
  EXPECT(vjpForwardEntryName("layer_fwd") == "");

  const char *json = R"({"format": "moe-artifact-1", "target": "cpu", "entries": [
      {"name": "f_fwd", "symbol": "a", "args": [
        {"name": "x", "role": "input", "io": "in", "shape": [2], "dtype": "f32"},
        {"name": "y", "role": "output", "io": "out", "shape": [2], "dtype": "f32"},
        {"name": "r0", "role": "residual", "io": "out", "shape": [2, 3], "dtype": "f32"},
        {"name": "r1", "role": "residual", "io": "out", "shape": [4], "dtype": "i32"}]},
      {"name": "f_bwd", "symbol": "b", "args": [
        {"name": "r0", "role": "residual", "io": "in", "shape": [2, 3], "dtype": "f32"},
        {"name": "r1", "role": "residual", "io": "in", "shape": [4], "dtype": "i32"},
        {"name": "d_y", "role": "cotangent", "io": "in", "shape": [2], "dtype": "f32"},
        {"name": "d_x", "role": "gradient", "io": "out", "shape": [2], "dtype": "f32"}]}]})";
  auto load = [](const std::string &text, ArtifactSpec *spec) {
    JsonValue v;
    Status s = parseJson(text, &v);
    return s.ok() ? parseArtifactSpec(v, spec) : s;
  };
  auto with = [&](std::vector<std::pair<std::string, std::string>> edits) {
    std::string s = json;
    for (auto &e : edits) {
      size_t at = s.find(e.first);
      if (at != std::string::npos)
        s.replace(at, e.first.size(), e.second);
    }
    return s;
  };
  auto chain = [&](const std::string &text) {
    ArtifactSpec spec;
    MOERT_TRY(load(text, &spec));
    return checkResidualChain(spec.entries[0], spec.entries[1]);
  };
  ArtifactSpec spec;
  EXPECT_OK(load(json, &spec));
  if (spec.entries.size() == 2) {
    EXPECT(spec.entries[0].residuals(false).size() == 2 && spec.entries[0].residuals(true).empty());
    EXPECT(spec.entries[1].residuals(true).size() == 2);
    EXPECT(spec.entries[1].findArg("d_y") == &spec.entries[1].args[2]);
    EXPECT(spec.entries[1].findArg("nope") == nullptr);
  }
  EXPECT_OK(chain(json));
  const std::string bwdR1 = R"({"name": "r1", "role": "residual", "io": "in", "shape": [4], "dtype": "i32"})";
  EXPECT_ERROR(chain(with({{bwdR1, R"({"name": "rX", "role": "residual", "io": "in", "shape": [4], "dtype": "i32"})"}})),
               "entry 'f_bwd' takes residual 'rX', which entry 'f_fwd' does not return (its residual outputs: r0, r1)");
  EXPECT_ERROR(chain(with({{bwdR1, R"({"name": "r1", "role": "residual", "io": "in", "shape": [5], "dtype": "i32"})"}})),
               "residual 'r1' is [4] i32 in entry 'f_fwd' but [5] i32 in entry 'f_bwd'");
  EXPECT_ERROR(chain(with({{bwdR1, R"({"name": "r1", "role": "residual", "io": "in", "shape": [4], "dtype": "i64"})"}})),
               "residual 'r1' is [4] i32 in entry 'f_fwd' but [4] i64 in entry 'f_bwd'");
  EXPECT_ERROR(chain(with({{bwdR1 + ",", ""}})),
               "entry 'f_fwd' returns residual 'r1', which entry 'f_bwd' does not take (its residual inputs: r0)");
  // A residual input that is not a residual output (io "in" in f_fwd).
  EXPECT_ERROR(chain(with({{R"("r1", "role": "residual", "io": "out")", R"("r1", "role": "residual", "io": "in")"}})),
               "entry 'f_bwd' takes residual 'r1', which entry 'f_fwd' does not return (its residual outputs: r0)");
  // Same names, other order.
  // (r1 -> r0 first: the r0 that the second edit finds is then the original.)
  EXPECT_ERROR(chain(with({{bwdR1, R"({"name": "r0", "role": "residual", "io": "in", "shape": [2, 3], "dtype": "f32"})"},
                           {R"("r0", "role": "residual", "io": "in", "shape": [2, 3], "dtype": "f32")",
                            R"("r1", "role": "residual", "io": "in", "shape": [4], "dtype": "i32")"}})),
               "residual 'r1' is residual input 0 of entry 'f_bwd' but residual output 1 of entry 'f_fwd' (the order must match: r0, r1)");
  // No residuals on either side chain trivially.
  EntrySpec empty1, empty2;
  EXPECT_OK(checkResidualChain(empty1, empty2));

  // Inputs of X_bwd that are X_fwd's (an argument of f the backward takes
  // directly): same name, shape and dtype, not a residual; the role may
  // differ. A primal input is no part of the residual chain.
  {
    const std::string bwdX = R"({"name": "x", "role": "input", "io": "in", "shape": [2], "dtype": "f32"})";
    const std::string d_y = R"({"name": "d_y", "role": "cotangent")";
    ArtifactSpec kept; // what shared()'s result points into
    auto shared = [&](const std::string &xSpec) -> const ArgSpec * {
      kept = ArtifactSpec();
      if (!load(with({{d_y, xSpec + ", " + d_y}}), &kept).ok() || kept.entries.size() != 2)
        return nullptr;
      const ArgSpec *x = kept.entries[1].findArg("x");
      return x ? sharedForwardInput(kept.entries[0], *x) : nullptr;
    };
    const ArgSpec *s = shared(bwdX);
    EXPECT(s && s->name == "x" && s->isInput && s->role == Role::Input);
    EXPECT_OK(chain(with({{d_y, bwdX + ", " + d_y}})));
    EXPECT(shared(R"({"name": "x", "role": "weight", "io": "in", "shape": [2], "dtype": "f32"})") != nullptr);
    EXPECT(shared(R"({"name": "x", "role": "input", "io": "in", "shape": [3], "dtype": "f32"})") == nullptr);
    EXPECT(shared(R"({"name": "x", "role": "input", "io": "in", "shape": [2], "dtype": "f64"})") == nullptr);
    EXPECT(shared(R"({"name": "x", "role": "input", "io": "out", "shape": [2], "dtype": "f32"})") == nullptr);
    if (spec.entries.size() == 2) {
      // Not for residuals, outputs of f_fwd or names f_fwd lacks.
      EXPECT(sharedForwardInput(spec.entries[0], *spec.entries[1].findArg("r0")) == nullptr);
      EXPECT(sharedForwardInput(spec.entries[0], *spec.entries[1].findArg("d_y")) == nullptr);
      ArgSpec y = *spec.entries[0].findArg("y");
      y.isInput = true;
      EXPECT(sharedForwardInput(spec.entries[0], y) == nullptr);
    }
  }

  // Inputs: DIR/<entry>/<name>.npy before DIR/<name>.npy; integer inputs need a file.
  std::string sub = joinPath(dir, "e");
  EXPECT_OK(makeDirectories(sub));
  const float vals[2] = {1.5f, -2.0f};
  EXPECT_OK(writeNpy(joinPath(dir, "x.npy"), DType::F32, {2}, vals));
  EXPECT(findInputFile(dir, "e", "x") == joinPath(dir, "x.npy"));
  EXPECT_OK(writeNpy(joinPath(sub, "x.npy"), DType::F32, {2}, vals));
  EXPECT(findInputFile(dir, "e", "x") == joinPath(sub, "x.npy"));
  EXPECT(findInputFile(dir, "other", "x") == joinPath(dir, "x.npy"));
  EXPECT(findInputFile(dir, "e", "y") == "");
  EXPECT(findInputFile("", "e", "x") == "");
  if (spec.entries.size() == 2) {
    const EntrySpec &fwd = spec.entries[0];
    std::string path;
    EXPECT_OK(planInput(dir, fwd, fwd.args[0], &path));
    EXPECT(path == joinPath(dir, "x.npy"));
    double got[2] = {0, 0};
    ArgSpec x64 = fwd.args[0];
    x64.dtype = DType::F64;
    EXPECT_OK(loadInputNpy(fwd, x64, path, got));
    EXPECT(got[0] == 1.5 && got[1] == -2.0);
    ArgSpec wrong = fwd.args[0];
    wrong.shape = {3};
    EXPECT_ERROR(loadInputNpy(fwd, wrong, path, got),
                 "entry 'f_fwd', input 'x' ([3] f32): ");
    ArgSpec idx = fwd.args[0];
    idx.name = "idx";
    idx.dtype = DType::I32;
    EXPECT_ERROR(planInput("", fwd, idx, &path),
                 "entry 'f_fwd': input 'idx' has integer type i32, which cannot be made up at "
                 "random; pass --inputs DIR with idx.npy");
    EXPECT_ERROR(fillRandomInput(fwd, idx, 0, got), "integer type i32 cannot be random");
    // Random inputs follow the documented scheme (seed 0, 'x', f32).
    float r[2] = {0, 0};
    EXPECT_OK(fillRandomInput(fwd, fwd.args[0], 0, r));
    EXPECT(r[0] == 0.0367172547f && r[1] == -0.274444312f);
  }
  removeFlatDirectory(sub);
}

void testBuffers() {
  // Small buffers come from malloc, large ones (>= 1 MiB) from mmap: both
  // zero, 64-byte aligned, movable.
  for (size_t bytes : {size_t(0), size_t(100), size_t(3) << 20}) {
    AlignedBuffer b;
    EXPECT_OK(b.allocate(bytes));
    EXPECT(b.data() != nullptr && b.size() == bytes);
    EXPECT(reinterpret_cast<uintptr_t>(b.data()) % kBufferAlignment == 0);
    const unsigned char *p = static_cast<const unsigned char *>(b.data());
    bool zero = true;
    for (size_t i = 0; i < bytes; i += 4093)
      zero &= p[i] == 0;
    EXPECT(zero && (bytes == 0 || p[bytes - 1] == 0));
    if (bytes)
      std::memset(b.data(), 7, bytes);
    AlignedBuffer moved(std::move(b));
    EXPECT(b.data() == nullptr && moved.size() == bytes);
    EXPECT(bytes == 0 || static_cast<unsigned char *>(moved.data())[bytes - 1] == 7);
    b = std::move(moved); // back, freeing nothing twice
    EXPECT(b.size() == bytes && moved.data() == nullptr);
    EXPECT_OK(b.allocate(bytes)); // re-allocating zeroes
    EXPECT(bytes == 0 || static_cast<unsigned char *>(b.data())[bytes - 1] == 0);
  }

  // take/adopt move an argument's buffer between entries (X_fwd's weights
  // into X_bwd), releaseInputs frees the inputs.
  const char *json = R"({"format": "moe-artifact-1", "target": "cpu", "entries": [
      {"name": "f", "symbol": "a", "args": [
        {"name": "w", "role": "weight", "io": "in", "shape": [600000], "dtype": "f32"},
        {"name": "x", "role": "input", "io": "in", "shape": [3], "dtype": "f32"},
        {"name": "y", "role": "output", "io": "out", "shape": [3], "dtype": "f32"}]}]})";
  JsonValue v;
  ArtifactSpec spec;
  EXPECT_OK(parseJson(json, &v));
  EXPECT_OK(parseArtifactSpec(v, &spec));
  if (spec.entries.size() != 1)
    return;
  const EntrySpec &e = spec.entries[0];
  EntryBuffers from, to;
  EXPECT_OK(from.allocate(e));
  EXPECT_OK(to.allocate(e));
  static_cast<float *>(from.data(0))[599999] = 2.5f;
  const void *weights = from.data(0);
  EXPECT_OK(to.adopt(0, from.take("w")));
  EXPECT(to.data(0) == weights && from.find("w") == nullptr && from.pointers()[0] == nullptr);
  EXPECT(to.pointers()[0] == weights && static_cast<float *>(to.data(0))[599999] == 2.5f);
  EXPECT(from.take("nothing").data() == nullptr);
  EXPECT_ERROR(to.adopt(1, from.take("w")), "argument 'x': a buffer of 0 bytes cannot hold its 12 bytes");
  AlignedBuffer eight;
  EXPECT_OK(eight.allocate(8));
  EXPECT_ERROR(to.adopt(1, std::move(eight)), "argument 'x': a buffer of 8 bytes cannot hold its 12");
  static_cast<float *>(to.data(2))[1] = 1.0f;
  to.releaseInputs();
  EXPECT(to.data(0) == nullptr && to.data(1) == nullptr && to.pointers()[0] == nullptr);
  EXPECT(static_cast<float *>(to.data(2))[1] == 1.0f);
}

void testMisc() {
  EXPECT(median({}) == 0.0);
  EXPECT(median({3.0, 1.0, 2.0}) == 2.0);
  EXPECT(median({4.0, 1.0, 2.0, 3.0}) == 2.5);
  uint64_t t0 = moert_now_ns(), t1 = moert_now_ns();
  EXPECT(t1 >= t0);
  EXPECT(moert_abi_version() == MOERT_ABI_VERSION);
  moert_dtype t;
  EXPECT(moert_dtype_from_name("f8e4m3", &t) == 0 && t == MOERT_F8E4M3);
  EXPECT(moert_dtype_from_name("f9", &t) == -1);
  EXPECT(moert_dtype_size(MOERT_I1) == 1 && moert_dtype_size(MOERT_BF16) == 2);
  EXPECT(moert_f64_to_bf16(1.0) == 0x3F80 && moert_f8e4m3_to_f64(0x7E) == 448.0);
  EXPECT(moert_artifact_open("/nonexistent/artifact") == nullptr);
  EXPECT(std::string(moert_last_error()).find("/nonexistent/artifact.json") !=
         std::string::npos);
  for (int i = 0; i < kNumDTypes; ++i) {
    DType d = static_cast<DType>(i), back;
    EXPECT(parseDType(dtypeName(d), &back) && back == d);
  }
}

} // namespace

int main() {
  testBF16();
  testBF16Nearest();
  testF16();
  testFP8();
  testRoundTrips();
  testRng();
  testJson();
  std::string dir = tempDir();
  EXPECT(!dir.empty());
  if (!dir.empty()) {
    testNpy(dir);
    testVjp(dir);
    removeFlatDirectory(dir);
  }
  testArtifactSpec();
  testBuffers();
  testMisc();
  return unitTestSummary();
}
