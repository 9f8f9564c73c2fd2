// The report's plots: gnuplot scripts and data per plot (plots.hpp, docs/report.md), drawn
// by gnuplot.hpp.
#include <slidecheck/verify/report/plots.hpp>

#include <slidecheck/verify/run/registry.hpp>

#include "report/gnuplot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace slidecheck::verify {
namespace {

namespace fs = std::filesystem;

/// Colours per algorithm (pale for float, dark for double), so that a group has the same
/// colour in every plot.
std::string colour(const GroupSummary& g) {
  static constexpr const char* pale[] = {"#6baed6", "#fc9272", "#74c476", "#bcbddc", "#fdae6b"};
  static constexpr const char* dark[] = {"#08519c", "#a50f15", "#006d2c", "#54278f", "#a63603"};
  static_assert(std::size(pale) == std::size(dark));
  // The registry's order: the built-ins keep their colours; later algorithms reuse them in turn.
  const std::size_t a = algorithm_order(g.algorithm) % std::size(pale);
  return g.precision == Precision::single_float ? pale[a] : dark[a];
}

/// The xtics of a categorical axis: ('name' 0, 'other' 1, ...).
std::string xtics(const std::vector<std::string>& names) {
  std::string out = "(";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{} {}", i ? ", " : "", gnuplot::gp_quote(gnuplot::gp_label(names[i])), i);
  return out + ")";
}

/// The x of group `j` of `n` in a cluster of bars centred on category `i`.
double cluster_x(std::size_t i, std::size_t j, std::size_t n, double slot) {
  return static_cast<double>(i) + (static_cast<double>(j) - (static_cast<double>(n) - 1) / 2) * slot;
}


/// (a) The distribution of bits per step value, one line per group: the fraction of the
/// group's values in each bin floor(bits) = k, log scale. Empty bins break the line.
std::string bits_histogram_script(const Summary& s, const fs::path& dir, const fs::path& out) {
  std::string data, plot;
  std::size_t block = 0, last_bin = 0;
  for (const GroupSummary& g : s.groups) {
    if (g.bits.values == 0) continue;
    std::size_t previous = bits_histogram_bins;
    for (std::size_t k = 0; k < bits_histogram_bins; ++k) {
      if (g.bits_histogram[k] == 0) continue;
      if (previous != bits_histogram_bins && k != previous + 1) data += '\n';
      const double fraction = static_cast<double>(g.bits_histogram[k]) / static_cast<double>(g.bits.values);
      data += fmt::format("{} {}\n", k, number_text(fraction));
      previous = k;
      last_bin = std::max(last_bin, k);
    }
    data += "\n\n";
    const bool single = g.precision == Precision::single_float;
    plot += fmt::format("{}{} index {} using 1:2 with linespoints lw 2 dt {} pt {} ps 0.8 lc rgb '{}' title {}",
                        block ? ", \\\n  " : "", gnuplot::gp_quote((dir / "bits.dat").string()), block, single ? 2 : 1,
                        single ? 6 : 7, colour(g), gnuplot::gp_quote(gnuplot::gp_label(fmt::format("{} ({} values)", g.name(), g.bits.values))));
    ++block;
  }
  if (block == 0) return {};
  gnuplot::write_file(dir / "bits.dat", data);
  std::string sc = fmt::format(gnuplot::kTerminal, 900, 460);
  sc += fmt::format("set output {}\n", gnuplot::gp_quote(out.string()));
  sc += "set title 'Local error per step value: fraction of values with floor(bits) = k'\n";
  sc += "set xlabel 'bits of error k (k = 0: correctly rounded; k: |ulps| from 2^k - 1 to 2^(k+1) - 2)'\n";
  sc += "set ylabel 'fraction of the group''s step values'\n";
  sc += "set logscale y\nset format y '%g'\nset grid\nset key tmargin center horizontal maxcols 4 samplen 2\nset yrange [:1.5]\n";
  sc += fmt::format("set xrange [-0.5:{}]\nset xtics 0,{}\n", last_bin + 1, last_bin >= 24 ? 4 : (last_bin >= 12 ? 2 : 1));
  sc += "plot " + plot + "\nunset output\nreset\n";
  return sc;
}

/// (b) Checked queries with each failure class, one bar per group, the count above it.
/// Only classes that some group has.
std::string failure_classes_script(const Summary& s, const fs::path& dir, const fs::path& out) {
  std::vector<FailureClass> classes;
  for (const FailureClass c : all_failure_classes)
    for (const GroupSummary& g : s.groups)
      if (g.queries_with[static_cast<std::size_t>(c)] > 0) {
        classes.push_back(c);
        break;
      }
  if (classes.empty()) return {};
  const std::size_t n = s.groups.size();
  const double slot = 0.8 / static_cast<double>(n);
  std::string data, plot;
  std::size_t top = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const GroupSummary& g = s.groups[j];
    for (std::size_t i = 0; i < classes.size(); ++i) {
      const std::size_t count = g.queries_with[static_cast<std::size_t>(classes[i])];
      top = std::max(top, count);
      data += fmt::format("{} {}\n", number_text(cluster_x(i, j, n, slot)), count);
    }
    data += "\n\n";
    const std::string file = gnuplot::gp_quote((dir / "classes.dat").string());
    plot += fmt::format("{}{} index {} using 1:2:({}) with boxes fs solid 1.0 border lc rgb '#404040' lc rgb '{}' title {}",
                        j ? ", \\\n  " : "", file, j, number_text(slot * 0.9), colour(g),
                        gnuplot::gp_quote(gnuplot::gp_label(fmt::format("{} (of {} checked)", g.name(), g.checked()))));
    plot += fmt::format(", \\\n  {} index {} using 1:2:(sprintf('%d', $2)) with labels offset 0,0.7 font 'sans,9' notitle",
                        file, j);
  }
  gnuplot::write_file(dir / "classes.dat", data);
  std::vector<std::string> names;
  for (const FailureClass c : classes) names.emplace_back(to_string(c));
  const std::size_t width = std::clamp<std::size_t>(160 + classes.size() * (40 + 28 * n), 640, 1400);
  std::string sc = fmt::format(gnuplot::kTerminal, width, 460);
  sc += fmt::format("set output {}\n", gnuplot::gp_quote(out.string()));
  sc += "set title 'Checked queries with each failure class'\n";
  sc += "set ylabel 'queries'\nset grid ytics\nset key tmargin center horizontal maxcols 4 samplen 2\nset style fill solid 1.0\n";
  sc += fmt::format("set xrange [-0.6:{}]\n", number_text(static_cast<double>(classes.size()) - 0.4));
  // Room above the tallest bar for its count and for the key.
  const std::size_t ymax = std::max<std::size_t>(1, top + top / 8 + 1);
  // Whole-number tics: these are counts of queries.
  sc += fmt::format("set yrange [0:{}]\nset ytics 0,{}\n", ymax, std::max<std::size_t>(1, (ymax + 7) / 8));
  sc += fmt::format("set xtics {} rotate by 20 right nomirror\n", xtics(names));
  sc += "plot " + plot + "\nunset output\nreset\n";
  return sc;
}

/// (c) Max and p99 bits per step name, one pair of bars per group: a wide pale bar up to the
/// max and a narrow solid bar up to the p99.
std::string step_bits_script(const Summary& s, const fs::path& dir, const fs::path& out) {
  std::vector<std::string> names;
  for (const GroupSummary& g : s.groups)
    for (const auto& [name, b] : g.by_step) names.push_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (names.empty()) return {};
  std::vector<const GroupSummary*> groups;
  for (const GroupSummary& g : s.groups)
    if (!g.by_step.empty()) groups.push_back(&g);
  const std::size_t n = groups.size();
  const double slot = 0.84 / static_cast<double>(n);
  std::string data, plot;
  double top = 1;
  for (std::size_t j = 0; j < n; ++j) {
    const GroupSummary& g = *groups[j];
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto it = g.by_step.find(names[i]);
      if (it == g.by_step.end()) continue;
      top = std::max(top, std::isfinite(it->second.max_bits) ? it->second.max_bits : 64.0);
      data += fmt::format("{} {} {}\n", number_text(cluster_x(i, j, n, slot)), gnuplot::data_number(it->second.max_bits),
                          gnuplot::data_number(it->second.p99_bits));
    }
    data += "\n\n";
    const std::string file = gnuplot::gp_quote((dir / "steps.dat").string());
    plot += fmt::format("{}{} index {} using 1:2:({}) with boxes fs transparent solid 0.35 border lc rgb '{}' lc rgb '{}' notitle",
                        j ? ", \\\n  " : "", file, j, number_text(slot * 0.92), colour(g), colour(g));
    plot += fmt::format(", \\\n  {} index {} using 1:3:({}) with boxes fs solid 1.0 noborder lc rgb '{}' title {}", file,
                        j, number_text(slot * 0.45), colour(g), gnuplot::gp_quote(gnuplot::gp_label(g.name())));
  }
  gnuplot::write_file(dir / "steps.dat", data);
  const std::size_t width = std::clamp<std::size_t>(160 + names.size() * (24 + 14 * n), 640, 1400);
  std::string sc = fmt::format(gnuplot::kTerminal, width, 480);
  sc += fmt::format("set output {}\n", gnuplot::gp_quote(out.string()));
  sc += "set title 'Bits of error per step: max (wide pale bar) and p99 (narrow solid bar)'\n";
  sc += "set ylabel 'bits of error'\nset grid ytics\nset key tmargin center horizontal maxcols 4 samplen 2\nset style fill solid 1.0\n";
  sc += fmt::format("set xrange [-0.6:{}]\n", number_text(static_cast<double>(names.size()) - 0.4));
  sc += fmt::format("set yrange [0:{}]\n", number_text(std::ceil(top * 1.3)));
  sc += fmt::format("set xtics {} rotate by 30 right nomirror\n", xtics(names));
  sc += "plot " + plot + "\nunset output\nreset\n";
  return sc;
}

}  // namespace

Plots draw_plots(const Summary& s, const std::string& gnuplot) {
  Plots plots;
  plots.warnings = gnuplot::draw(
      {
          {&plots.bits_histogram, "bits", "Local error per step value",
           [&](const fs::path& dir, const fs::path& svg) { return bits_histogram_script(s, dir, svg); }},
          {&plots.failure_classes, "classes", "Checked queries with each failure class",
           [&](const fs::path& dir, const fs::path& svg) { return failure_classes_script(s, dir, svg); }},
          {&plots.step_bits, "steps", "Max and p99 bits per step",
           [&](const fs::path& dir, const fs::path& svg) { return step_bits_script(s, dir, svg); }},
      },
      gnuplot);
  return plots;
}

}  // namespace slidecheck::verify
