// Lossless number text: hexfloat output, exact hexfloat input, correctly rounded decimal input.
#include <slidecheck/formats/hexfloat.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

namespace slidecheck::formats {

namespace {

template <class T> constexpr const char* type_name() { return std::same_as<T, float> ? "float" : "double"; }

std::string quoted(std::string_view s) {
  constexpr std::size_t max_shown = 60;  // a garbage token can be a whole line
  std::string out = "'";
  out += s.size() <= max_shown ? std::string(s) : std::string(s.substr(0, max_shown)) + "...";
  return out + "'";
}

bool is_hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}
bool is_dec_digit(char c) { return c >= '0' && c <= '9'; }

/// Exact hexfloat reader. `body` follows the sign and the "0x". We read the digits
/// ourselves instead of using from_chars(hex), which rounds: a hexfloat that names a
/// value the target type cannot hold must be an error, not silently rounded.
template <class T>
T parse_hex_body(std::string_view text, std::string_view body, bool negative) {
  std::string digits;  // all significand digits, integer part then fraction
  long long frac_digits = 0;
  std::size_t i = 0;
  while (i < body.size() && is_hex_digit(body[i])) digits += body[i++];
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && is_hex_digit(body[i])) { digits += body[i++]; ++frac_digits; }
  }
  if (digits.empty()) throw NumberError(quoted(text) + " is not a number: a hexfloat needs hex digits after 0x");
  long long exponent = 0;
  if (i < body.size() && (body[i] == 'p' || body[i] == 'P')) {
    ++i;
    bool exp_negative = false;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) exp_negative = body[i++] == '-';
    const std::size_t exp_begin = i;
    while (i < body.size() && is_dec_digit(body[i])) ++i;
    if (i == exp_begin) throw NumberError(quoted(text) + " is not a number: the exponent after 'p' has no digits");
    // Far beyond any float's range; capping keeps the arithmetic below from overflowing.
    constexpr long long exp_cap = 1'000'000;
    for (std::size_t k = exp_begin; k < i && exponent < exp_cap; ++k) exponent = exponent * 10 + (body[k] - '0');
    if (exp_negative) exponent = -exponent;
  }
  if (i != body.size()) throw NumberError(quoted(text) + " is not a number: unexpected " + quoted(body.substr(i)) + " after it");

  // value = digits (as an integer) * 2^(exponent - 4 * frac_digits); drop zero digits at both ends.
  long long e2 = exponent - 4 * frac_digits;
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return negative ? -T(0) : T(0);
  std::size_t last = digits.find_last_not_of('0');
  e2 += 4 * static_cast<long long>(digits.size() - 1 - last);
  const std::string_view significant = std::string_view(digits).substr(first, last - first + 1);
  const std::string not_exact = quoted(text) + " is not exactly representable in " + type_name<T>() +
                                " (a hexfloat is never rounded)";
  // 15 significant hex digits span at least 1 + 4*13 + 1 = 54 bits: more than any double.
  if (significant.size() > 15) throw NumberError(not_exact);
  std::uint64_t m = 0;
  for (char c : significant) m = m * 16 + static_cast<std::uint64_t>(hex_value(c));
  const int tz = std::countr_zero(m);
  m >>= tz;
  e2 += tz;
  const int bits = std::bit_width(m);
  const long long top = e2 + bits - 1;  // exponent of the leading bit
  constexpr int p = std::numeric_limits<T>::digits;
  constexpr int emax = std::numeric_limits<T>::max_exponent - 1;              // 1023, 127
  constexpr int emin_sub = std::numeric_limits<T>::min_exponent - 1 - (p - 1);  // -1074, -149
  if (top > emax) throw NumberError(quoted(text) + " is too large for " + type_name<T>());
  if (bits > p || e2 < emin_sub) throw NumberError(not_exact);
  const T value = std::ldexp(static_cast<T>(m), static_cast<int>(e2));  // exact: checked above
  return negative ? -value : value;
}

/// Decimal reader: std::from_chars rounds correctly to nearest-even in T (once, directly
/// to T) and ignores the locale. We check the syntax first because from_chars also
/// accepts "inf" and "nan", which are not coordinates.
template <class T>
T parse_decimal_body(std::string_view text, std::string_view body, bool negative) {
  if (body.empty() || !(is_dec_digit(body[0]) || body[0] == '.')) {
    const bool nonfinite = !body.empty() && (body[0] == 'n' || body[0] == 'N' || body[0] == 'i' || body[0] == 'I');
    throw NumberError(quoted(text) + (nonfinite ? " is not finite: NaN and infinities are not allowed" : " is not a number"));
  }
  T value{};
  const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), value, std::chars_format::general);
  if (ec == std::errc::invalid_argument) throw NumberError(quoted(text) + " is not a number");
  if (ptr != body.data() + body.size())
    throw NumberError(quoted(text) + " is not a number: unexpected " +
                      quoted(body.substr(static_cast<std::size_t>(ptr - body.data()))) + " after it");
  if (ec == std::errc::result_out_of_range) {
    // Overflow or underflow to zero: both are extreme, so the sign of the decimal exponent
    // of the leading non-zero digit tells which.
    const std::size_t e = body.find_first_of("eE");
    const std::string_view mantissa = body.substr(0, e);
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t lead = mantissa.find_first_not_of("0.");
    long long exp_value = 0;
    if (e != std::string_view::npos) {
      std::size_t k = e + 1;
      const bool exp_negative = k < body.size() && body[k] == '-';
      if (k < body.size() && (body[k] == '+' || body[k] == '-')) ++k;
      for (; k < body.size() && exp_value < 1'000'000; ++k) exp_value = exp_value * 10 + (body[k] - '0');
      if (exp_negative) exp_value = -exp_value;
    }
    const long long lead_exp = lead == std::string_view::npos ? -1
                               : lead < point ? exp_value + static_cast<long long>(point - lead - 1)
                                              : exp_value - static_cast<long long>(lead - point);
    const bool large = lead_exp >= 0;
    throw NumberError(quoted(text) + (large ? " is too large for " : " is too small for ") + type_name<T>() +
                      (large ? " (overflows to infinity)" : " (rounds to zero)"));
  }
  if (!std::isfinite(value)) throw NumberError(quoted(text) + " is not finite");
  return negative ? -value : value;
}

template <class T>
T parse_number(std::string_view text) {
  if (text.empty()) throw NumberError("empty text where a number was expected");
  std::string_view body = text;
  bool negative = false;
  if (body[0] == '+' || body[0] == '-') {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.size() >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X'))
    return parse_hex_body<T>(text, body.substr(2), negative);
  return parse_decimal_body<T>(text, body, negative);
}

template <class T>
std::string hex_text(T x) {
  if (!std::isfinite(x)) throw std::invalid_argument("cannot write a non-finite value as a hexfloat");
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::hex);
  if (ec != std::errc()) throw std::logic_error("to_chars(hex) failed");
  std::string_view s(buf, static_cast<std::size_t>(ptr - buf));
  // to_chars writes "-1.8p+1"; %a puts "0x" after the sign.
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  return std::string(negative ? "-0x" : "0x") + std::string(s);
}

template <class T>
std::string decimal_text(T x) {
  if (!std::isfinite(x)) throw std::invalid_argument("cannot write a non-finite value");
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip form
  if (ec != std::errc()) throw std::logic_error("to_chars failed");
  return std::string(buf, ptr);
}

}  // namespace

std::string_view precision_name(Precision p) { return p == Precision::single_float ? "float" : "double"; }

Precision parse_precision(std::string_view text) {
  if (text == "float") return Precision::single_float;
  if (text == "double") return Precision::double_float;
  throw std::invalid_argument("precision must be 'float' or 'double', not '" + std::string(text) + "'");
}

std::string to_hex(double x) { return hex_text(x); }
std::string to_hex(float x) { return hex_text(x); }
template <class F>
std::string exact_text_of(F x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return hex_text(x);
}
std::string exact_text(double x) { return exact_text_of(x); }
std::string exact_text(float x) { return exact_text_of(x); }
std::string to_decimal(double x) { return decimal_text(x); }
std::string to_decimal(float x) { return decimal_text(x); }

double parse_double(std::string_view text) { return parse_number<double>(text); }
float parse_float(std::string_view text) { return parse_number<float>(text); }

bool is_hexfloat_text(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  return text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

bool representable_in(double x, Precision p) {
  if (p == Precision::double_float) return true;
  // Out-of-range values become infinity as float and compare unequal.
  return static_cast<double>(static_cast<float>(x)) == x;
}

double parse_coordinate(std::string_view text, Precision p) {
  return p == Precision::single_float ? static_cast<double>(parse_float(text)) : parse_double(text);
}

}  // namespace slidecheck::formats
