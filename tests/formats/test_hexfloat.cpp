// Lossless number text: hexfloat output and exact input, correctly rounded decimal input.
#include "support/ieee_generators.hpp"

#include <slidecheck/formats/hexfloat.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

using namespace slidecheck;
using formats::NumberError;
using formats::parse_double;
using formats::parse_float;
using formats::Precision;
using formats::to_hex;
using test::same_bits;

namespace {
/// glibc's printf("%a"): the reference for the hexfloat spelling of a double.
std::string printf_a(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

/// The NumberError message for `text`, or "" when it parses.
template <class F>
std::string error_of(const std::string& text) {
  try {
    if constexpr (std::is_same_v<F, float>) parse_float(text);
    else parse_double(text);
  } catch (const NumberError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

BOOST_AUTO_TEST_SUITE(hexfloat)

BOOST_AUTO_TEST_CASE(formats_like_printf_a) {
  BOOST_TEST(to_hex(3.0) == "0x1.8p+1");
  BOOST_TEST(to_hex(-0.0) == "-0x0p+0");
  BOOST_TEST(to_hex(0.0) == "0x0p+0");
  BOOST_TEST(to_hex(0.1) == "0x1.999999999999ap-4");
  BOOST_TEST(to_hex(std::numeric_limits<double>::denorm_min()) == "0x0.0000000000001p-1022");
  BOOST_TEST(to_hex(std::numeric_limits<double>::max()) == "0x1.fffffffffffffp+1023");
  BOOST_TEST(to_hex(std::numeric_limits<double>::min()) == "0x1p-1022");
  BOOST_TEST(to_hex(1.0f) == "0x1p+0");
  BOOST_TEST(to_hex(0.1f) == "0x1.99999ap-4");
  BOOST_TEST(to_hex(std::numeric_limits<float>::denorm_min()) == "0x0.000002p-126");
  BOOST_CHECK_THROW(to_hex(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  BOOST_CHECK_THROW(to_hex(-std::numeric_limits<float>::infinity()), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(reads_hexfloats_exactly) {
  BOOST_TEST(parse_double("0x1.8p+1") == 3.0);
  BOOST_TEST(parse_double("0X1.8P+1") == 3.0);
  BOOST_TEST(parse_double("+0x1.8p1") == 3.0);
  BOOST_TEST(parse_double("0x1.8") == 1.5);
  BOOST_TEST(parse_double("0x.8p1") == 1.0);
  BOOST_TEST(parse_double("0x18p-3") == 3.0);
  BOOST_TEST(parse_double("0x0001.80000000000000000000000p+1") == 3.0);
  BOOST_TEST(std::signbit(parse_double("-0x0p+0")));
  BOOST_TEST(!std::signbit(parse_double("0x0p+0")));
  BOOST_TEST(parse_double("0x0.0000000000001p-1022") == std::numeric_limits<double>::denorm_min());
  BOOST_TEST(parse_double("0x1p-1074") == std::numeric_limits<double>::denorm_min());
  BOOST_TEST(parse_double("0x0.fffffffffffffp-1022") == std::nextafter(std::numeric_limits<double>::min(), 0.0));
  BOOST_TEST(parse_double("0x1.fffffffffffffp+1023") == std::numeric_limits<double>::max());
  BOOST_TEST(parse_double("-0x1.fffffffffffffp+1023") == -std::numeric_limits<double>::max());
  BOOST_TEST(parse_float("0x1p-149") == std::numeric_limits<float>::denorm_min());
  BOOST_TEST(parse_float("0x1.fffffep+127") == std::numeric_limits<float>::max());
  BOOST_TEST(parse_float("0x1.000002p+0") == std::nextafter(1.0f, 2.0f));
}

BOOST_AUTO_TEST_CASE(refuses_hexfloats_it_would_have_to_round) {
  BOOST_TEST(contains(error_of<double>("0x1.00000000000008p+0"), "not exactly representable in double"));
  BOOST_TEST(contains(error_of<double>("0x1p-1075"), "not exactly representable in double"));
  BOOST_TEST(contains(error_of<double>("0x1.8p-1074"), "not exactly representable in double"));
  BOOST_TEST(contains(error_of<double>("0x1p+1024"), "too large for double"));
  BOOST_TEST(contains(error_of<double>("0x1p+99999999999999999999"), "too large for double"));
  BOOST_TEST(contains(error_of<double>("0x1p-99999999999999999999"), "not exactly representable"));
  BOOST_TEST(contains(error_of<float>("0x1.000001p+0"), "not exactly representable in float"));
  BOOST_TEST(contains(error_of<float>("0x1p-150"), "not exactly representable in float"));
  BOOST_TEST(contains(error_of<float>("0x1p+128"), "too large for float"));
  BOOST_TEST(error_of<double>("0x1.000001p+0").empty());  // the same text is fine in double
}

BOOST_AUTO_TEST_CASE(rounds_decimals_once_to_the_target) {
  BOOST_TEST(parse_double("0.1") == 0.1);
  BOOST_TEST(parse_float("0.1") == 0.1f);
  BOOST_TEST(parse_double("-2.5e-3") == -2.5e-3);
  BOOST_TEST(parse_double(".5") == 0.5);
  BOOST_TEST(parse_double("4.9406564584124654e-324") == std::numeric_limits<double>::denorm_min());
  BOOST_TEST(std::signbit(parse_double("-0.0")));
  // 1 + 2^-24 + 1e-26 lies just above the midpoint between the floats 1 and 1 + 2^-23.
  // Rounded once it goes up; via double it first lands on the midpoint and then ties to 1.
  const std::string above_midpoint = "1.00000005960464477539062501";
  BOOST_TEST(parse_float(above_midpoint) == std::nextafter(1.0f, 2.0f));
  BOOST_TEST(static_cast<float>(parse_double(above_midpoint)) == 1.0f);  // what double rounding gives
  // The exact midpoint ties to even.
  BOOST_TEST(parse_float("1.000000059604644775390625") == 1.0f);
  BOOST_TEST(parse_float("1.000000178813934326171875") == std::nextafter(std::nextafter(1.0f, 2.0f), 2.0f));
  BOOST_TEST(formats::parse_coordinate(above_midpoint, Precision::single_float) ==
             static_cast<double>(std::nextafter(1.0f, 2.0f)));
}

BOOST_AUTO_TEST_CASE(rejects_what_is_not_a_finite_number) {
  for (const char* text : {"nan", "NaN", "-nan", "inf", "-inf", "Infinity", "+INF"})
    BOOST_TEST(contains(error_of<double>(text), "not finite"), text);
  for (const char* text : {"", " 1", "1 ", "1.0x", "0x", "0x1p", "0x1p+", "0xg", "--1", "+-1", "1e", "abc", ".",
                           "0x1.8p+1garbage", "1,5", "0x1.8p+1.5", "1e5e5"})
    BOOST_TEST(!error_of<double>(text).empty(), "'" << text << "' was accepted");
  BOOST_TEST(contains(error_of<double>(""), "empty"));
  BOOST_TEST(contains(error_of<double>("1.0x"), "unexpected 'x'"));
  BOOST_TEST(contains(error_of<double>("1e400"), "too large for double"));
  BOOST_TEST(contains(error_of<double>("-1e400"), "too large for double"));
  BOOST_TEST(contains(error_of<double>("1e-400"), "too small for double"));
  BOOST_TEST(contains(error_of<double>("0.0000001e-320"), "too small for double"));
  BOOST_TEST(contains(error_of<double>("123456789e301"), "too large for double"));
  BOOST_TEST(contains(error_of<float>("1e39"), "too large for float"));
  BOOST_TEST(contains(error_of<float>("1e-50"), "too small for float"));
  BOOST_TEST(error_of<float>("1e-45").empty());  // rounds to the smallest subnormal, not to zero
}

BOOST_AUTO_TEST_CASE(precision_names_and_representability) {
  BOOST_TEST(formats::precision_name(Precision::single_float) == "float");
  BOOST_TEST((formats::parse_precision("double") == Precision::double_float));
  BOOST_CHECK_THROW(formats::parse_precision("half"), std::invalid_argument);
  BOOST_TEST(formats::representable_in(0.1, Precision::double_float));
  BOOST_TEST(!formats::representable_in(0.1, Precision::single_float));
  BOOST_TEST(formats::representable_in(static_cast<double>(0.1f), Precision::single_float));
  BOOST_TEST(!formats::representable_in(1e300, Precision::single_float));
  BOOST_TEST(formats::representable_in(-0.0, Precision::single_float));
  BOOST_TEST(formats::is_hexfloat_text("-0x1p+0"));
  BOOST_TEST(!formats::is_hexfloat_text("10"));
}

RC_BOOST_PROP(double_hex_matches_printf_and_reads_back, ()) {
  const double x = *test::gen_finite<double>();
  const std::string text = to_hex(x);
  RC_ASSERT(text == printf_a(x));
  RC_ASSERT(same_bits(parse_double(text), x));
}

RC_BOOST_PROP(float_hex_reads_back_and_is_exact_as_float, ()) {
  const float x = *test::gen_finite<float>();
  const std::string text = to_hex(x);
  RC_ASSERT(same_bits(parse_float(text), x));
  RC_ASSERT(same_bits(parse_double(text), static_cast<double>(x)));  // the same value in double
  RC_ASSERT(same_bits(static_cast<float>(formats::parse_coordinate(text, Precision::single_float)), x));
}

RC_BOOST_PROP(shortest_decimal_reads_back, ()) {
  const double x = *test::gen_finite<double>();
  RC_ASSERT(same_bits(parse_double(formats::to_decimal(x)), x));
  const float f = *test::gen_finite<float>();
  RC_ASSERT(same_bits(parse_float(formats::to_decimal(f)), f));
}

RC_BOOST_PROP(decimals_round_like_glibc_strtod, ()) {
  // A random decimal of up to 30 significant digits; glibc's strtod/strtof (correctly
  // rounded, C locale in the tests) is the independent oracle.
  std::string text = *rc::gen::element<std::string>("", "-");
  const int digits = *rc::gen::inRange(1, 31);
  for (int i = 0; i < digits; ++i) text += static_cast<char>('0' + *rc::gen::inRange(0, 10));
  if (*rc::gen::arbitrary<bool>()) {
    const std::size_t at = text.size() - static_cast<std::size_t>(*rc::gen::inRange(0, digits));
    text = text.substr(0, at) + '.' + text.substr(at);
  }
  if (text.back() == '.') text.push_back('5');
  text.push_back('e');
  text.append(std::to_string(*rc::gen::inRange(-340, 310)));
  const double d = std::strtod(text.c_str(), nullptr);
  if (std::isfinite(d) && (d != 0 || text.find_first_of("123456789") == std::string::npos)) {
    RC_ASSERT(same_bits(parse_double(text), d));
  }
  const float f = std::strtof(text.c_str(), nullptr);
  if (std::isfinite(f) && (f != 0 || text.find_first_of("123456789") == std::string::npos)) {
    RC_ASSERT(same_bits(parse_float(text), f));
  }
}

BOOST_AUTO_TEST_SUITE_END()
