#pragma once
// Drawing plots with gnuplot for the HTML reports of verify and eps-sweep: scripts and data
// files in a private temporary directory, gnuplot forked and exec'd (never through a shell) so
// that it dies with slidecheck, its SVG made embeddable.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify::gnuplot {

/// The svg terminal line; fmt arguments: width, height.
inline constexpr const char* kTerminal = "set terminal svg size {},{} font 'sans,11' noenhanced background '#ffffff'\n";

/// A string literal for a gnuplot script (single quotes, the quote itself doubled).
std::string gp_quote(std::string_view s);
/// A label shown inside a plot: printable ASCII without quotes or backslashes.
std::string gp_label(std::string_view s);
/// A number for a data file: finite (gnuplot skips nan/inf silently), lossless.
std::string data_number(double x);
void write_file(const std::filesystem::path& p, const std::string& text);
std::string read_file(const std::filesystem::path& p);
/// The last lines of a text, joined on one line (for warnings).
std::string tail_lines(const std::string& text, std::size_t lines);

/// One plot: its script is made from a temporary directory (for data files) and the SVG path
/// it must write; an empty script means nothing to draw. The embeddable SVG lands in *target.
struct Figure {
  std::string* target;
  std::string name, title;
  std::function<std::string(const std::filesystem::path& dir, const std::filesystem::path& svg)> script;
};

/// Draws every figure in one gnuplot run. Returns warnings (gnuplot missing or failing, an
/// SVG not written), never throws for those.
std::vector<std::string> draw(const std::vector<Figure>& figures, const std::string& gnuplot);

}  // namespace slidecheck::verify::gnuplot
