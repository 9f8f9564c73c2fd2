#pragma once
/// What this build of slidecheck is: version, compiler, floating-point flags, dependencies.
/// Printed by `slidecheck version` and recorded in every case file and report.

#include <string>
#include <utility>
#include <vector>

namespace slidecheck::verify {

struct BuildInfo {
  std::string version;
  std::string compiler;
  std::string build_type;
  std::string cxx_flags;       ///< the flags every slidecheck target was compiled with
  bool fp_contract_off;        ///< -ffp-contract=off in force (checked at run time too)
  int flt_eval_method;         ///< FLT_EVAL_METHOD: 0 means no excess precision
  std::vector<std::pair<std::string, std::string>> dependencies;  ///< name, version
};

BuildInfo build_info();

}  // namespace slidecheck::verify
