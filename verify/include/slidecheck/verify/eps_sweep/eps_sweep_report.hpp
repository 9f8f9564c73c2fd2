#pragma once
/// The outputs of an eps sweep made from its cells (docs/eps-sweep.md): console summary, CSV
/// tables, the report with its plots, and each world's worst case.

#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>

#include <string>

namespace slidecheck::verify {

/// The outputs (summary.txt, cells.csv, eps_star.csv, error_model.csv, report.html, and
/// cases/ with each world's worst case, re-verified from the corpus) of a finished sweep;
/// returns the console summary and fills warnings (plots missing, corpus gone).
std::string write_eps_sweep_outputs(const std::string& dir, const EpsSweepOptions& options, EpsSweepResult& result);

}  // namespace slidecheck::verify
