#include <slidecheck/verify/run/build_info.hpp>

#include <slidecheck/reference/config.hpp>

#include "build_config.hpp"

#include <CGAL/version.h>
#include <boost/version.hpp>
#include <fmt/core.h>
#include <gmp.h>
#include <mpfr.h>
#include <nlohmann/json.hpp>

#include <cfloat>

namespace slidecheck::verify {
namespace {

/// True when this translation unit's compiler fuses a*b-c into an FMA. Inputs are
/// volatile so nothing is folded at compile time: a*b = 1 - 2^-54 exactly, which
/// rounds (tie, to even) to 1, so unfused a*b-1 is 0 while a fused one is -2^-54.
bool contraction_observed() {
  volatile double a = 1.0 + 0x1p-27, b = 1.0 - 0x1p-27, c = 1.0;
  const double r = a * b - c;
  return r != 0.0;
}

}  // namespace

BuildInfo build_info() {
  BuildInfo info;
  info.version = SLIDECHECK_VERSION_STRING;
  info.compiler = SLIDECHECK_CXX_COMPILER;
  info.build_type = SLIDECHECK_BUILD_TYPE;
  info.cxx_flags = SLIDECHECK_CXX_FLAGS;
  info.fp_contract_off = !contraction_observed();
  info.flt_eval_method = FLT_EVAL_METHOD;
  info.dependencies = {
      {"boost", fmt::format("{}.{}.{}", BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100)},
      {"gmp", gmp_version},
      {"mpfr", mpfr_get_version()},
      {"cgal", CGAL_VERSION_STR},
      {"nlohmann_json", fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                                    NLOHMANN_JSON_VERSION_PATCH)},
      {"fmt", fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100)},
  };
  return info;
}

}  // namespace slidecheck::verify
