// The outputs of eps-sweep (eps_sweep_report.hpp, docs/eps-sweep.md): console summary, CSV tables and
// the HTML report with log-log plots, all made from the cells alone.
#include <slidecheck/verify/eps_sweep/eps_sweep_report.hpp>

#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/report/report.hpp>

#include "report/gnuplot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

namespace slidecheck::verify {

namespace {

namespace fs = std::filesystem;

std::string group_name(Algorithm a, Precision p) {
  return std::string(algorithm_name(a)) + " " + std::string(precision_name(p));
}

std::string world_name(double scale, double offset) {
  return "scale " + number_text(scale) + ", offset " + number_text(offset);
}

/// A tolerance value for people: 0, 2^k when a power of two, else the shortest decimal.
std::string value_text(double v) {
  if (v == 0) return "0";
  int e = 0;
  const double m = std::frexp(v, &e);
  if (m == 0.5) return "2^" + std::to_string(e - 1);
  return number_text(v);
}

std::string optional_text(const std::optional<double>& x) { return x ? number_text(*x) : ""; }

std::string summary(const EpsSweepOptions& o, const EpsSweepResult& r) {
  std::ostringstream out;
  std::size_t queries = r.cells.empty() ? 0 : r.cells.front().queries;
  out << "eps-sweep: " << r.cells.size() << " cells over " << queries << " queries";
  if (r.resumed) out << " (" << r.resumed << " resumed)";
  out << "\n\n" << eps_star_definition() << "\n";
  out << fmt::format("{:<24} {:<30} {:<20} {:>8} {:>8} {:>16} {:>7} {:>12} {:>9} {:>11}\n", "algorithm", "world",
                     "tolerance", "eps*", "up to", "failing at min", "always", "clearance*", "travel*", "eps*/(u M)");
  for (const EpsStar& s : r.stars) {
    const double u = unit_roundoff(s.precision);
    out << fmt::format("{:<24} {:<30} {:<20} {:>8} {:>8} {:>16} {:>7} {:>12} {:>9} {:>11}\n",
                       group_name(s.algorithm, s.precision), world_name(s.scale, s.offset), s.tolerance,
                       s.value ? value_text(*s.value) : "none", s.safe_up_to ? value_text(*s.safe_up_to) : "-",
                       std::to_string(s.failing_at_smallest) + " of " + std::to_string(queries), s.persistent,
                       s.value ? fmt::format("{:.3g}", s.clearance_at_star.value_or(NAN)) : "-",
                       s.value ? fmt::format("{:.4f}", s.travel_at_star) : "-",
                       s.value && s.magnitude > 0 ? fmt::format("{:.3g}", *s.value / (u * s.magnitude)) : "-");
  }
  // Failing queries per value, one column per (algorithm, precision, world).
  std::vector<std::string> columns;
  std::map<double, std::map<std::string, std::size_t>> table;
  for (const EpsCell& c : r.cells) {
    const std::string col = group_name(c.key.algorithm, c.key.precision) +
                            (o.scales.size() * o.offsets.size() > 1 ? " s" + number_text(c.key.scale) + " o" + number_text(c.key.offset) : "");
    if (std::find(columns.begin(), columns.end(), col) == columns.end()) columns.push_back(col);
    table[c.key.value][col] = c.eps_failing;
  }
  out << "\nqueries failing (eps classes) per tolerance value\n" << fmt::format("{:>10}", "value");
  for (const std::string& c : columns) out << fmt::format(" {:>18}", c.substr(0, 18));
  out << '\n';
  for (const auto& [value, row] : table) {
    out << fmt::format("{:>10}", value_text(value));
    for (const std::string& c : columns) {
      const auto it = row.find(c);
      out << fmt::format(" {:>18}", it == row.end() ? "" : std::to_string(it->second));
    }
    out << '\n';
  }
  // The error model: the three steps with the largest coefficients per group.
  out << "\nper-step error model |error| <= C u M (u: unit roundoff, M: the query's coordinate magnitude); per group "
         "the three steps with the largest C, and C's spread over the worlds (max/min: near 1 when the error grows with "
         "the coordinates)\n";
  std::map<std::pair<int, int>, std::vector<const ErrorModel*>> by_group;
  for (const ErrorModel& m : r.models)
    by_group[{static_cast<int>(algorithm_order(m.algorithm)), static_cast<int>(m.precision)}].push_back(&m);
  for (auto& [g, models] : by_group) {
    std::sort(models.begin(), models.end(), [](const ErrorModel* a, const ErrorModel* b) {
      return a->coefficient != b->coefficient ? a->coefficient > b->coefficient : a->quantity < b->quantity;
    });
    auto spread = [](const ErrorModel* m) {
      double lo = std::numeric_limits<double>::infinity(), hi = 0;
      for (const auto& p : m->points)
        if (p.coefficient > 0) lo = std::min(lo, p.coefficient), hi = std::max(hi, p.coefficient);
      return hi > 0 ? hi / lo : 1.0;
    };
    out << "  " << group_name(models.front()->algorithm, models.front()->precision) << ":";
    for (std::size_t k = 0; k < std::min<std::size_t>(3, models.size()); ++k)
      out << fmt::format(" {} C={:.3g} (spread {:.3g})", models[k]->quantity, models[k]->coefficient, spread(models[k]));
    out << '\n';
  }
  return out.str();
}

std::string cells_csv(const std::vector<EpsCell>& cells) {
  std::string out = "algorithm,precision,scale,offset,tolerance,value,queries,invalid,failing,eps_failing,back_face";
  for (const FailureClass c : all_failure_classes) out += "," + std::string(to_string(c));
  out += ",min_clearance,min_clearance_passing,max_depth,mean_travel_fraction,mean_lost_fraction,ulps_max,ulps_p99,abs_max,abs_p99,"
         "iterations_mean,iterations_max,magnitude\n";
  for (const EpsCell& c : cells) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}", algorithm_name(c.key.algorithm), precision_name(c.key.precision),
                       number_text(c.key.scale), number_text(c.key.offset), csv_field(c.tolerance),
                       number_text(c.key.value), c.queries, c.invalid, c.failing, c.eps_failing, c.back_face);
    for (const FailureClass k : all_failure_classes) {
      const auto it = c.queries_with.find(k);
      out += "," + std::to_string(it == c.queries_with.end() ? 0 : it->second);
    }
    out += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{}\n", optional_text(c.min_clearance),
                       optional_text(c.min_clearance_passing), number_text(c.max_depth),
                       number_text(c.mean_travel_fraction), optional_text(c.mean_lost_fraction),
                       number_text(c.ulps_max), number_text(c.ulps_p99), number_text(c.abs_max),
                       number_text(c.abs_p99), number_text(c.iterations_mean), c.iterations_max,
                       number_text(c.magnitude));
  }
  return out;
}

std::string stars_csv(const std::vector<EpsStar>& stars) {
  std::string out =
      "algorithm,precision,scale,offset,tolerance,eps_star,safe_up_to,failing_at_smallest,failing_at_every_value,"
      "clearance_at_star,"
      "travel_at_star,"
      "clearance_at_smallest,travel_at_smallest,magnitude,eps_star_over_u_magnitude\n";
  for (const EpsStar& s : stars) {
    const double u = unit_roundoff(s.precision);
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", algorithm_name(s.algorithm),
                       precision_name(s.precision), number_text(s.scale), number_text(s.offset), csv_field(s.tolerance),
                       s.value ? number_text(*s.value) : "", s.safe_up_to ? number_text(*s.safe_up_to) : "",
                       s.failing_at_smallest, s.persistent,
                       s.value ? optional_text(s.clearance_at_star) : "", s.value ? number_text(s.travel_at_star) : "",
                       optional_text(s.clearance_at_smallest), number_text(s.travel_at_smallest),
                       number_text(s.magnitude),
                       s.value && s.magnitude > 0 ? number_text(*s.value / (u * s.magnitude)) : "");
  }
  return out;
}

std::string models_csv(const std::vector<ErrorModel>& models) {
  std::string out = "algorithm,precision,quantity,coefficient,scale,offset,magnitude,world_coefficient,observed_max_abs,bound,bound_over_observed\n";
  for (const ErrorModel& m : models)
    for (const ErrorModel::Point& p : m.points)
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", algorithm_name(m.algorithm), precision_name(m.precision),
                         csv_field(m.quantity), number_text(m.coefficient), number_text(p.scale),
                         number_text(p.offset), number_text(p.magnitude), number_text(p.coefficient), number_text(p.observed),
                         number_text(p.bound), p.observed > 0 ? number_text(p.bound / p.observed) : "");
  return out;
}

double eps_failing_of(const EpsCell& c) { return static_cast<double>(c.eps_failing); }
double abs_max_of(const EpsCell& c) { return c.abs_max; }

/// One log-log plot: per (algorithm, precision, world) a line of y(cell) against the swept
/// value; the value 0 and y <= 0 cannot be drawn on log axes and are left out (the tables
/// have them).
std::string loglog_script(const std::vector<EpsCell>& cells, double scale, double offset, const fs::path& dir,
                          const fs::path& svg, const std::string& name, const std::string& title,
                          const std::string& ylabel, double (*y)(const EpsCell&)) {
  std::map<std::string, std::vector<std::pair<double, double>>> series;
  std::vector<std::string> order;
  for (const EpsCell& c : cells) {
    if (c.key.scale != scale || c.key.offset != offset) continue;
    const std::string key = group_name(c.key.algorithm, c.key.precision);
    if (!series.count(key)) order.push_back(key);
    auto& s = series[key];
    const double v = y(c);
    if (c.key.value > 0 && v > 0 && std::isfinite(v)) s.emplace_back(c.key.value, v);
  }
  std::string data, plot;
  std::size_t block = 0;
  for (const std::string& key : order) {
    auto& s = series[key];
    if (s.empty()) continue;
    std::sort(s.begin(), s.end());
    for (const auto& [x, v] : s) data += gnuplot::data_number(x) + " " + gnuplot::data_number(v) + "\n";
    data += "\n\n";
    plot += fmt::format("{}{} index {} using 1:2 with linespoints lw 2 pt 7 ps 0.6 title {}", block ? ", \\\n  " : "",
                        gnuplot::gp_quote((dir / (name + ".dat")).string()), block, gnuplot::gp_quote(gnuplot::gp_label(key)));
    ++block;
  }
  if (block == 0) return {};
  gnuplot::write_file(dir / (name + ".dat"), data);
  std::string sc = fmt::format(gnuplot::kTerminal, 900, 420);
  sc += fmt::format("set output {}\n", gnuplot::gp_quote(svg.string()));
  sc += fmt::format("set title {}\n", gnuplot::gp_quote(title));
  sc += "set xlabel 'tolerance value (log scale; 0 left out)'\n";
  sc += fmt::format("set ylabel {}\n", gnuplot::gp_quote(ylabel));
  // Counts read as numbers; errors spanning many binades as powers of two.
  sc += fmt::format("set logscale xy 2\nset format x '2^%L'\nset format y '{}'\nset grid\n",
                    y == &eps_failing_of ? "%g" : "2^%L");
  sc += "set key outside right top vertical samplen 2\n";
  sc += "plot " + plot + "\nunset output\nreset\n";
  return sc;
}


/// The plots of one world (scale, offset).
struct WorldPlots {
  double scale = 1, offset = 0;
  std::string failures, error;
};

std::string html(const EpsSweepOptions& o, const EpsSweepResult& r, const std::vector<WorldPlots>& plots,
                 const std::vector<std::string>& warnings) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>slidecheck eps-sweep report</title>\n"
       "<style>body{font-family:sans-serif;margin:1.5em;max-width:1100px}table{border-collapse:collapse;margin:0.5em 0}"
       "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}td.l,th.l{text-align:left}"
       ".warn{color:#a50f15}</style></head><body>\n<h1>slidecheck eps-sweep report</h1>\n";
  std::string corpus;
  for (const std::string& c : o.corpus) corpus += (corpus.empty() ? "" : ", ") + c;
  h << "<p>corpus " << html_escape(corpus) << "; " << r.cells.size() << " cells; slidecheck "
    << html_escape(build_info().version)
    << ". Definitions: docs/eps-sweep.md; the failure classes: docs/architecture.md (both in the slidecheck "
       "repository).</p>\n";
  for (const std::string& w : warnings) h << "<p class=\"warn\">" << html_escape(w) << "</p>\n";
  h << "<h2>eps*</h2>\n<p>" << html_escape(eps_star_definition())
    << " Its cost is the least clearance and the mean fraction of the requested move travelled at eps*.</p>\n"
       "<table><tr><th class=\"l\">algorithm</th>"
       "<th class=\"l\">world</th><th class=\"l\">tolerance</th><th>eps*</th><th>safe up to</th><th>failing at the smallest value</th>"
       "<th>failing at every value</th>"
       "<th>clearance at eps*</th><th>travel at eps*</th><th>magnitude M</th><th>eps* / (u M)</th>"
       "<th class=\"l\">worst case</th></tr>\n";
  std::size_t viewed = 0;
  for (const EpsStar& s : r.stars) {
    const double u = unit_roundoff(s.precision);
    h << "<tr><td class=\"l\">" << html_escape(group_name(s.algorithm, s.precision)) << "</td><td class=\"l\">"
      << html_escape(world_name(s.scale, s.offset)) << "</td><td class=\"l\">" << html_escape(s.tolerance)
      << "</td><td>" << (s.value ? value_text(*s.value) : "none") << "</td><td>"
      << (s.safe_up_to ? value_text(*s.safe_up_to) : "") << "</td><td>" << s.failing_at_smallest
      << "</td><td>" << s.persistent
      << "</td><td>" << (s.value ? optional_text(s.clearance_at_star) : "") << "</td><td>"
      << (s.value ? number_text(s.travel_at_star) : "") << "</td><td>" << number_text(s.magnitude) << "</td><td>"
      << (s.value && s.magnitude > 0 ? fmt::format("{:.3g}", *s.value / (u * s.magnitude)) : "") << "</td><td class=\"l\">";
    const std::string name = worst_case_file_name(s);
    if (s.worst_query && fs::exists(fs::path(o.out) / "cases" / name)) {
      h << "query " << *s.worst_query << " at " << value_text(s.worst_value) << ": <a href=\"cases/" << html_escape(name)
        << "\">case</a>";
      if (viewed++ < o.views)
        h << " (<a href=\"views/" << html_escape(fs::path(name).replace_extension(".html").string())
          << "\">view in 3D</a>)";
    }
    h << "</td></tr>\n";
  }
  h << "</table>\n<h2>Failures and per-step error against the tolerance</h2>\n<p>Per world, one curve per "
       "algorithm and precision, log-log (the value 0 and counts of 0 cannot be drawn: the tables have them).</p>\n";
  for (const WorldPlots& w : plots)
    h << "<h3>" << html_escape(world_name(w.scale, w.offset)) << "</h3>\n" << w.failures << "\n" << w.error << "\n";
  h << "\n<h2>Per-step error model</h2>\n"
    << "<p>|error| &le; C u M (u the unit roundoff, M the query's coordinate magnitude, C the largest |error| / (u M) "
       "over every query and world); per world its own largest |error| / (u M), and the bound C u M at the world's "
       "largest magnitude against the largest error seen there.</p>\n<table><tr><th class=\"l\">"
       "algorithm</th><th class=\"l\">quantity</th><th>C</th><th class=\"l\">world</th><th>world's C</th><th>M</th><th>observed</th>"
       "<th>bound</th><th>bound / observed</th></tr>\n";
  for (const ErrorModel& m : r.models)
    for (const ErrorModel::Point& p : m.points)
      h << "<tr><td class=\"l\">" << html_escape(group_name(m.algorithm, m.precision)) << "</td><td class=\"l\">"
        << html_escape(m.quantity) << "</td><td>" << fmt::format("{:.3g}", m.coefficient) << "</td><td class=\"l\">"
        << html_escape(world_name(p.scale, p.offset)) << "</td><td>" << fmt::format("{:.3g}", p.coefficient) << "</td><td>" << number_text(p.magnitude) << "</td><td>"
        << fmt::format("{:.3g}", p.observed) << "</td><td>" << fmt::format("{:.3g}", p.bound) << "</td><td>"
        << (p.observed > 0 ? fmt::format("{:.3g}", p.bound / p.observed) : "") << "</td></tr>\n";
  h << "</table>\n<p>Every cell: cells.csv; eps*: eps_star.csv; the model: error_model.csv.</p>\n</body></html>\n";
  return h.str();
}

}  // namespace

std::string write_eps_sweep_outputs(const std::string& dir, const EpsSweepOptions& options, EpsSweepResult& result) {
  const fs::path out(dir);
  fs::remove_all(out / "cases");
  try {
    write_eps_worst_cases(dir, options, result.stars);
  } catch (const InputError& e) {
    result.warnings.push_back(std::string("the worst cases were not written (the corpus is needed): ") + e.what());
  }
  const std::string text = summary(options, result);
  write_text_file((out / "summary.txt").string(), text);
  write_text_file((out / "cells.csv").string(), cells_csv(result.cells));
  write_text_file((out / "eps_star.csv").string(), stars_csv(result.stars));
  write_text_file((out / "error_model.csv").string(), models_csv(result.models));
  // One pair of plots per world, in sweep order.
  std::vector<WorldPlots> plots;
  for (const EpsCell& c : result.cells)
    if (std::none_of(plots.begin(), plots.end(),
                     [&](const WorldPlots& w) { return w.scale == c.key.scale && w.offset == c.key.offset; }))
      plots.push_back({c.key.scale, c.key.offset, {}, {}});
  std::vector<gnuplot::Figure> figures;
  for (std::size_t i = 0; i < plots.size(); ++i) {
    WorldPlots& w = plots[i];
    const std::string where = world_name(w.scale, w.offset);
    figures.push_back({&w.failures, "failures" + std::to_string(i), "Queries failing, " + where,
                       [&, i, where](const fs::path& d, const fs::path& svg) {
                         return loglog_script(result.cells, plots[i].scale, plots[i].offset, d, svg,
                                              "failures" + std::to_string(i), "Queries failing (eps* classes), " + where,
                                              "failing queries", &eps_failing_of);
                       }});
    figures.push_back({&w.error, "error" + std::to_string(i), "Largest per-step error, " + where,
                       [&, i, where](const fs::path& d, const fs::path& svg) {
                         return loglog_script(result.cells, plots[i].scale, plots[i].offset, d, svg,
                                              "error" + std::to_string(i), "Largest absolute per-step error, " + where,
                                              "max |computed - exact|", &abs_max_of);
                       }});
  }
  const auto warnings = gnuplot::draw(figures, options.gnuplot_executable);
  result.warnings.insert(result.warnings.end(), warnings.begin(), warnings.end());
  write_text_file((out / "report.html").string(), html(options, result, plots, result.warnings));
  return text;
}

}  // namespace slidecheck::verify
