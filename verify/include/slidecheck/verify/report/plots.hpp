#pragma once
/// The plots of the verify report (docs/report.md), drawn by gnuplot as SVG.

#include <slidecheck/verify/report/summary.hpp>

#include <string>
#include <vector>

namespace slidecheck::verify {

/// The plots of the report as SVG text (each a whole <svg> element, ids made unique per
/// plot), or empty with a warning saying why.
struct Plots {
  std::string bits_histogram;   ///< (a) distribution of bits per step, per group
  std::string failure_classes;  ///< (b) checked queries with each failure class, per group
  std::string step_bits;        ///< (c) max and p99 bits per step name, per group
  std::vector<std::string> warnings;
};

/// Draws the plots with gnuplot's svg terminal from a temporary script and data files
/// (removed afterwards). A missing gnuplot, a failed run (non-zero exit, stderr quoted) or a
/// missing output becomes a warning, never an exception. A plot with nothing to show (no
/// step values, no failures) is left empty without a warning.
Plots draw_plots(const Summary& s, const std::string& gnuplot);

}  // namespace slidecheck::verify
