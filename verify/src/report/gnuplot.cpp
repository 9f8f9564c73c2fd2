// Drawing plots with gnuplot (gnuplot.hpp).
#include "report/gnuplot.hpp"

#include "process/child_lifetime.hpp"
#include "process/temporary_folder.hpp"

#include <slidecheck/verify/report/report.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace slidecheck::verify::gnuplot {

namespace fs = std::filesystem;

namespace {

/// The outcome of running gnuplot on a script.
struct RunResult {
  bool ok = false;
  std::string problem;  ///< when not ok
};

/// The executable `gnuplot` names: a path as given, a name searched on PATH; empty when none.
std::string find_executable(const std::string& gnuplot) {
  if (gnuplot.find('/') != std::string::npos) return ::access(gnuplot.c_str(), X_OK) == 0 ? gnuplot : std::string();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + gnuplot;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
  }
  return {};
}

RunResult run_gnuplot(const std::string& gnuplot, const fs::path& script, const fs::path& log) {
  const std::string executable = find_executable(gnuplot);
  if (executable.empty())
    return {false, fmt::format("gnuplot executable '{}' not found (Debian package gnuplot-nox)", gnuplot)};
  // -d: ignore the user's ~/.gnuplot, so the plots depend on the data alone.
  std::string arg0 = gnuplot, arg1 = "-d", arg2 = script.string();
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};
  const std::string log_path = log.string();
  // Forked here and waited for, so that gnuplot dies with slidecheck (child_lifetime.hpp).
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls until exec.
    process::die_with_parent(parent);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || ::dup2(in, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 ||
        ::dup2(out, STDERR_FILENO) < 0)
      ::_exit(127);
    ::execv(executable.c_str(), argv);
    ::_exit(127);
  }
  if (pid < 0) return {false, fmt::format("cannot start gnuplot '{}': {}", gnuplot, std::strerror(errno))};
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

}  // namespace

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

std::vector<std::string> draw(const std::vector<Figure>& figures, const std::string& gnuplot) {
  std::vector<std::string> warnings;
  try {
    const process::TemporaryFolder tmp("slidecheck-plots-");
    const fs::path dir = tmp.path();
    std::vector<std::string> scripts;
    std::string script;
    for (const Figure& f : figures) {
      scripts.push_back(f.script(dir, dir / (f.name + ".svg")));
      script += scripts.back();
    }
    if (script.empty()) return warnings;  // nothing to draw
    write_file(dir / "plots.gp", script);
    const RunResult run = run_gnuplot(gnuplot, dir / "plots.gp", dir / "gnuplot.log");
    if (!run.ok) {
      warnings.push_back("plots missing: " + run.problem);
      return warnings;
    }
    for (std::size_t i = 0; i < figures.size(); ++i) {
      const Figure& f = figures[i];
      if (scripts[i].empty()) continue;
      *f.target = embeddable_svg(read_file(dir / (f.name + ".svg")), "plot-" + f.name, f.title);
      if (f.target->empty())
        warnings.push_back(fmt::format("plot '{}' missing: gnuplot wrote no SVG ({})", f.title,
                                       tail_lines(read_file(dir / "gnuplot.log"), 4)));
    }
  } catch (const std::exception& e) {
    warnings.push_back(std::string("plots missing: ") + e.what());
  }
  return warnings;
}

}  // namespace slidecheck::verify::gnuplot
