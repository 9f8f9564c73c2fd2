// The report's plots: gnuplot (svg terminal) run on a temporary script and data files
// (report.hpp, docs/report.md). gnuplot is started with posix_spawn, not through a shell,
// so no path or label is ever parsed by one; strings inside the gnuplot script are quoted
// with gnuplot's own single-quote rule.
#include <slidecheck/verify/report.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace slidecheck::verify {
namespace {

namespace fs = std::filesystem;

/// A fresh private directory under the system's temporary directory, removed with everything
/// in it when this goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "slidecheck-plots-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw std::runtime_error(std::string("cannot create a temporary directory: ") + std::strerror(errno));
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// A string literal for a gnuplot script: in single quotes nothing is special but the quote
/// itself, written twice.
std::string gp_quote(std::string_view s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

/// A label shown inside a plot: printable ASCII without quotes or backslashes (anything else
/// becomes '?'), so that neither gnuplot nor the SVG it writes can misread it. The tables
/// next to the plots show the exact names.
std::string gp_label(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\'' || c == '\\' || c == '`') c = '?';
  }
  return out;
}

/// Colours per algorithm (pale for float, dark for double), so that a group has the same
/// colour in every plot.
std::string colour(const GroupSummary& g) {
  static constexpr const char* pale[] = {"#6baed6", "#fc9272", "#74c476", "#bcbddc", "#fdae6b"};
  static constexpr const char* dark[] = {"#08519c", "#a50f15", "#006d2c", "#54278f", "#a63603"};
  static_assert(std::size(pale) == std::size(all_algorithms) && std::size(dark) == std::size(all_algorithms));
  const auto a = static_cast<std::size_t>(g.algorithm);
  return g.precision == Precision::single_float ? pale[a] : dark[a];
}

/// A number for a data file: finite (gnuplot skips nan/inf silently), lossless.
std::string data_number(double x) {
  if (std::isnan(x)) return "0";
  if (std::isinf(x)) return x > 0 ? "64" : "0";
  return number_text(x);
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The last lines of gnuplot's output, for a warning.
std::string tail_lines(const std::string& text, std::size_t lines) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  std::size_t begin = end;
  for (std::size_t n = 0; begin > 0; --begin)
    if (text[begin - 1] == '\n' && ++n == lines) break;
  std::string out = text.substr(begin, end - begin);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

/// The outcome of running gnuplot on a script.
struct RunResult {
  bool ok = false;
  std::string problem;  ///< when not ok
};

RunResult run_gnuplot(const std::string& gnuplot, const fs::path& script, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // -d: ignore the user's ~/.gnuplot, so the plots depend on the data alone.
  std::string arg0 = gnuplot, arg1 = "-d", arg2 = script.string();
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};
  pid_t pid = 0;
  // A name is searched on PATH (posix_spawnp), a path is used as given.
  const bool is_path = gnuplot.find('/') != std::string::npos;
  const int err = is_path ? posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv, environ)
                          : posix_spawnp(&pid, gnuplot.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    if (err == ENOENT)
      return {false, fmt::format("gnuplot executable '{}' not found (Debian package gnuplot-nox)", gnuplot)};
    return {false, fmt::format("cannot start gnuplot '{}': {}", gnuplot, std::strerror(err))};
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return {false, fmt::format("waiting for gnuplot failed: {}", std::strerror(errno))};
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {true, {}};
  const std::string output = tail_lines(read_file(log), 4);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    return {false, fmt::format("gnuplot '{}' could not be run (exit status 127): {}", gnuplot, output)};
  if (WIFEXITED(status))
    return {false, fmt::format("gnuplot failed with exit status {}: {}", WEXITSTATUS(status), output)};
  return {false, fmt::format("gnuplot was killed by signal {}: {}", WTERMSIG(status), output)};
}

/// Makes gnuplot's SVG fit inside an HTML page beside other plots: no XML prolog, every id
/// (and every reference to one) prefixed so that the plots' ids do not clash, the document
/// title replaced by the plot's.
std::string embeddable_svg(const std::string& svg, const std::string& prefix, const std::string& title) {
  const std::size_t start = svg.find("<svg");
  if (start == std::string::npos) return {};
  std::string s = svg.substr(start);
  const auto replace_all = [&s](const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  };
  for (const char q : {'"', '\''}) {
    replace_all(fmt::format(" id={}", q), fmt::format(" id={}{}-", q, prefix));
    replace_all(fmt::format("href={}#", q), fmt::format("href={}#{}-", q, prefix));
  }
  replace_all("url(#", "url(#" + prefix + "-");
  replace_all("<title>Gnuplot</title>", "<title>" + html_escape(title) + "</title>");
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

/// The xtics of a categorical axis: ('name' 0, 'other' 1, ...).
std::string xtics(const std::vector<std::string>& names) {
  std::string out = "(";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{} {}", i ? ", " : "", gp_quote(gp_label(names[i])), i);
  return out + ")";
}

/// The x of group `j` of `n` in a cluster of bars centred on category `i`.
double cluster_x(std::size_t i, std::size_t j, std::size_t n, double slot) {
  return static_cast<double>(i) + (static_cast<double>(j) - (static_cast<double>(n) - 1) / 2) * slot;
}

constexpr const char* kTerminal = "set terminal svg size {},{} font 'sans,11' noenhanced background '#ffffff'\n";

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
                        block ? ", \\\n  " : "", gp_quote((dir / "bits.dat").string()), block, single ? 2 : 1,
                        single ? 6 : 7, colour(g), gp_quote(gp_label(fmt::format("{} ({} values)", g.name(), g.bits.values))));
    ++block;
  }
  if (block == 0) return {};
  write_file(dir / "bits.dat", data);
  std::string sc = fmt::format(kTerminal, 900, 460);
  sc += fmt::format("set output {}\n", gp_quote(out.string()));
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
    const std::string file = gp_quote((dir / "classes.dat").string());
    plot += fmt::format("{}{} index {} using 1:2:({}) with boxes fs solid 1.0 border lc rgb '#404040' lc rgb '{}' title {}",
                        j ? ", \\\n  " : "", file, j, number_text(slot * 0.9), colour(g),
                        gp_quote(gp_label(fmt::format("{} (of {} checked)", g.name(), g.checked()))));
    plot += fmt::format(", \\\n  {} index {} using 1:2:(sprintf('%d', $2)) with labels offset 0,0.7 font 'sans,9' notitle",
                        file, j);
  }
  write_file(dir / "classes.dat", data);
  std::vector<std::string> names;
  for (const FailureClass c : classes) names.emplace_back(to_string(c));
  const std::size_t width = std::clamp<std::size_t>(160 + classes.size() * (40 + 28 * n), 640, 1400);
  std::string sc = fmt::format(kTerminal, width, 460);
  sc += fmt::format("set output {}\n", gp_quote(out.string()));
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
      data += fmt::format("{} {} {}\n", number_text(cluster_x(i, j, n, slot)), data_number(it->second.max_bits),
                          data_number(it->second.p99_bits));
    }
    data += "\n\n";
    const std::string file = gp_quote((dir / "steps.dat").string());
    plot += fmt::format("{}{} index {} using 1:2:({}) with boxes fs transparent solid 0.35 border lc rgb '{}' lc rgb '{}' notitle",
                        j ? ", \\\n  " : "", file, j, number_text(slot * 0.92), colour(g), colour(g));
    plot += fmt::format(", \\\n  {} index {} using 1:3:({}) with boxes fs solid 1.0 noborder lc rgb '{}' title {}", file,
                        j, number_text(slot * 0.45), colour(g), gp_quote(gp_label(g.name())));
  }
  write_file(dir / "steps.dat", data);
  const std::size_t width = std::clamp<std::size_t>(160 + names.size() * (24 + 14 * n), 640, 1400);
  std::string sc = fmt::format(kTerminal, width, 480);
  sc += fmt::format("set output {}\n", gp_quote(out.string()));
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
  try {
    TempDir tmp;
    const fs::path dir = tmp.path();
    struct Wanted {
      std::string* target;
      std::string name, title, script;
    };
    std::vector<Wanted> wanted{
        {&plots.bits_histogram, "bits", "Local error per step value", {}},
        {&plots.failure_classes, "classes", "Checked queries with each failure class", {}},
        {&plots.step_bits, "steps", "Max and p99 bits per step", {}},
    };
    wanted[0].script = bits_histogram_script(s, dir, dir / "bits.svg");
    wanted[1].script = failure_classes_script(s, dir, dir / "classes.svg");
    wanted[2].script = step_bits_script(s, dir, dir / "steps.svg");
    std::string script;
    for (const Wanted& w : wanted) script += w.script;
    if (script.empty()) return plots;  // nothing to draw
    write_file(dir / "plots.gp", script);
    const RunResult run = run_gnuplot(gnuplot, dir / "plots.gp", dir / "gnuplot.log");
    if (!run.ok) {
      plots.warnings.push_back("plots missing: " + run.problem);
      return plots;
    }
    for (const Wanted& w : wanted) {
      if (w.script.empty()) continue;
      *w.target = embeddable_svg(read_file(dir / (w.name + ".svg")), "plot-" + w.name, w.title);
      if (w.target->empty())
        plots.warnings.push_back(fmt::format("plot '{}' missing: gnuplot wrote no SVG ({})", w.title,
                                             tail_lines(read_file(dir / "gnuplot.log"), 4)));
    }
  } catch (const std::exception& e) {
    plots.warnings.push_back(std::string("plots missing: ") + e.what());
  }
  return plots;
}

}  // namespace slidecheck::verify
