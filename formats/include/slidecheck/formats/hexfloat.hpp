#pragma once
/// Lossless number text. Every coordinate slidecheck writes is a C99 `%a` hexfloat
/// ("0x1.8p+1", "-0x0p+0", "0x0.0000000000001p-1022"), which names one binary value
/// exactly. Input accepts hexfloats (exact, or an error) and decimals (rounded once,
/// correctly, to the target precision by std::from_chars, which is locale-independent).

#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace slidecheck::formats {

/// The binary precision a scene or imported mesh declares for its coordinates.
enum class Precision { single_float, double_float };

/// "float" or "double".
std::string_view precision_name(Precision p);
inline std::ostream& operator<<(std::ostream& os, Precision p) { return os << precision_name(p); }
/// Parses "float" or "double"; throws std::invalid_argument otherwise.
Precision parse_precision(std::string_view text);

/// A number that could not be parsed; what() says why, without the file and line
/// (the caller wraps it into an InputError that names them).
class NumberError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The exact value as a C99 `%a` hexfloat with the 0x prefix: "0x1.8p+1", "-0x0p+0";
/// subnormals are written as glibc's printf does ("0x0.0000000000001p-1022").
/// Throws std::invalid_argument for NaN and infinities, which slidecheck never writes.
std::string to_hex(double x);
std::string to_hex(float x);

/// Exact text for any value a float run can produce: to_hex when finite, else "nan", "inf"
/// or "-inf" (traces, records and replay print these; JSON has no non-finite numbers).
std::string exact_text(double x);
std::string exact_text(float x);

/// The shortest decimal that reads back to the same value (std::to_chars): for people,
/// next to the hexfloat. Throws std::invalid_argument for NaN and infinities.
std::string to_decimal(double x);
std::string to_decimal(float x);

/// Parses one finite number: a hexfloat ("[+-]0x<hex>[.<hex>][p[+-]<dec>]", exact: a
/// value not representable in the target type is an error, never rounded) or a decimal
/// ("[+-]<digits>[.<digits>][e[+-]<digits>]", rounded once to nearest-even in the target
/// type). Rejects empty text, surrounding spaces, trailing garbage, NaN, Inf, decimals
/// that overflow or underflow to zero; throws NumberError.
double parse_double(std::string_view text);
float parse_float(std::string_view text);

/// True when the text is written as a hexfloat (after an optional sign).
bool is_hexfloat_text(std::string_view text);

/// True when x (finite) is exactly representable in the precision (always for double).
bool representable_in(double x, Precision p);

/// Parses a coordinate for a mesh of the given precision: parse_float (then widened
/// exactly) for float, parse_double for double. So a hexfloat must be exact in that
/// precision and a decimal is rounded once, directly to it (never via double).
double parse_coordinate(std::string_view text, Precision p);

}  // namespace slidecheck::formats
