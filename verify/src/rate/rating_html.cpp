// The rating's pages: rating.html and the comparison page (rate/rating_html.hpp, docs/rate.md).
#include <slidecheck/verify/rate/rating_html.hpp>

#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/rate/scorecard.hpp>
#include <slidecheck/verify/report/html.hpp>
#include <slidecheck/verify/report/summary.hpp>
#include <slidecheck/verify/run/failure_classes.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace slidecheck::verify::rate {
namespace {

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:1.5em;color:#222;max-width:110em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:0.9em;margin:0.5em 0}
th,td{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.bad{background:#fde0dc}td.ok{background:#e2f3e6}
figure{margin:1em 1.5em 1em 0;display:inline-block;vertical-align:top}figcaption{font-size:0.9em;color:#444;max-width:40em}
svg{max-width:100%;height:auto}code{font-size:0.95em}dt{font-weight:bold;margin-top:0.4em}dd{margin-left:1.5em}
.verdict{font-size:1.1em}
)";

// The heat map's geometry (SVG user units) and colours.
constexpr int kCellW = 92, kCellH = 38, kLeft = 86, kTop = 46, kRight = 12, kBottom = 44;
constexpr const char* kSafe = "#2f9e55";
constexpr const char* kNone = "#e4e4e4";

/// Failing cells run from orange (a failing fraction of 1e-3 or less) to red (1/2 or more),
/// on a log scale: the fraction spans orders of magnitude, and any failure is worth seeing.
std::string failing_colour(double fraction) {
  const double lo = -3.0, hi = std::log10(0.5);
  const double t = std::clamp((std::log10(std::max(fraction, 1e-12)) - lo) / (hi - lo), 0.0, 1.0);
  const auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xf2, 0xb0), mix(0xa5, 0x1c), mix(0x3c, 0x1c));
}

/// A scale or offset for people: "0", "1e4", "1e-2" for powers of ten beyond 100, else the
/// shortest decimal that reads back to the same double.
std::string axis_text(double x) {
  if (x != 0 && std::isfinite(x)) {
    const double e = std::round(std::log10(std::fabs(x)));
    if (std::fabs(e) >= 3 && std::fabs(e) <= 300 && std::pow(10.0, e) == std::fabs(x))
      return fmt::format("{}1e{}", x < 0 ? "-" : "", static_cast<int>(e));
  }
  return number_text(x);
}

const EnvelopeCell* cell_at(const Rating& r, double scale, double offset) {
  for (const EnvelopeCell& c : r.envelope)
    if (c.scale == scale && c.offset == offset) return &c;
  return nullptr;
}

std::string cell_title(const EnvelopeCell* c, double scale, double offset) {
  std::string t = "scale " + axis_text(scale) + ", offset " + axis_text(offset) + ": ";
  if (c == nullptr || c->judged == 0) return t + "no query of the suite here";
  if (c->failing == 0) return t + fmt::format("{} queries, none failing", c->judged);
  t += fmt::format("{} of {} queries failing (", c->failing, c->judged);
  bool first = true;
  for (const auto& [name, n] : c->classes) {
    t += fmt::format("{}{} {}", first ? "" : ", ", name, n);
    first = false;
  }
  return t + ")";
}

std::string td(const std::string& html, const char* cls = nullptr) {
  return cls ? std::string("<td class=\"") + cls + "\">" + html + "</td>" : "<td>" + html + "</td>";
}

std::string rate_text(const ClassRating& c) {
  if (c.judged == 0) return "&ndash;";
  return html_escape(fmt::format("{} of {}", c.failing, c.judged)) +
         (c.failing > 0 ? html_escape(fmt::format(" ({:.3g} %)", 100.0 * c.rate())) : std::string());
}

std::string class_meaning(const std::string& name) {
  const std::optional<FailureClass> c = find_failure_class(name);
  return c ? failure_class_info(*c).meaning : std::string();
}

std::string page_head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html_escape(title) +
         "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n<h1>" + html_escape(title) + "</h1>\n";
}

std::string suite_text(const SuiteIdentity& s) {
  return fmt::format("slidecheck-suite {} ({}), {}, {}, slice {}", s.version, s.variant, s.shape, s.precision,
                     s.slice);
}

std::string legend() {
  return fmt::format(
      "<p>Each cell is one world scale (row) and offset from the origin (column) of the suite: "
      "<span style=\"background:{};color:#fff;padding:0 0.3em\">green</span> when every query there "
      "passed (starts inside included: one not recovered from fails), <span style=\"background:{};padding:0 0.3em\">orange</span> to "
      "<span style=\"background:{};color:#fff;padding:0 0.3em\">red</span> by the fraction failing "
      "(1e-3 or less to 1/2 or more, log scale), <span style=\"background:{};padding:0 0.3em\">grey</span> "
      "where the suite has no query. Hover a cell for its counts and classes.</p>\n",
      kSafe, failing_colour(1e-3), failing_colour(0.5), kNone);
}

}  // namespace

EnvelopeGrid envelope_grid(const std::vector<const Rating*>& ratings) {
  std::set<double> scales, offsets;
  for (const Rating* r : ratings)
    for (const EnvelopeCell& c : r->envelope) {
      scales.insert(c.scale);
      offsets.insert(c.offset);
    }
  return {{scales.begin(), scales.end()}, {offsets.begin(), offsets.end()}};
}

std::string envelope_svg(const Rating& r, const EnvelopeGrid& grid, const std::string& id) {
  const int w = kLeft + kCellW * static_cast<int>(grid.offsets.size()) + kRight;
  const int h = kTop + kCellH * static_cast<int>(grid.scales.size()) + kBottom;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{}\" class=\"envelope\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{}-title\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title id=\"{}-title\">Operating envelope of {}</title>\n",
      html_escape(id), w, h, w, h, html_escape(id), html_escape(id), html_escape(r.implementation));
  s += fmt::format("<text x=\"{}\" y=\"14\" text-anchor=\"middle\">offset from the origin</text>\n",
                   kLeft + kCellW * static_cast<double>(grid.offsets.size()) / 2);
  for (std::size_t j = 0; j < grid.offsets.size(); ++j)
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", kLeft + kCellW * j + kCellW / 2,
                     kTop - 10, html_escape(axis_text(grid.offsets[j])));
  s += fmt::format("<text x=\"14\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {})\">world scale</text>\n",
                   kTop + kCellH * static_cast<double>(grid.scales.size()) / 2,
                   kTop + kCellH * static_cast<double>(grid.scales.size()) / 2);
  for (std::size_t i = 0; i < grid.scales.size(); ++i) {
    const int y = kTop + kCellH * static_cast<int>(i);
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLeft - 8, y + kCellH / 2 + 4,
                     html_escape(axis_text(grid.scales[i])));
    for (std::size_t j = 0; j < grid.offsets.size(); ++j) {
      const int x = kLeft + kCellW * static_cast<int>(j);
      const EnvelopeCell* c = cell_at(r, grid.scales[i], grid.offsets[j]);
      const bool judged = c != nullptr && c->judged > 0;
      const char* state = !judged ? "none" : c->failing == 0 ? "safe" : "failing";
      const std::string fill =
          !judged ? kNone : c->failing == 0 ? std::string(kSafe) : failing_colour(double(c->failing) / double(c->judged));
      s += fmt::format(
          "<g><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"2\" "
          "data-scale=\"{}\" data-offset=\"{}\" data-state=\"{}\"><title>{}</title></rect>",
          x, y, kCellW, kCellH, fill, html_escape(number_text(grid.scales[i])),
          html_escape(number_text(grid.offsets[j])), state,
          html_escape(cell_title(c, grid.scales[i], grid.offsets[j])));
      if (judged)
        s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\" pointer-events=\"none\">{}</text>",
                         x + kCellW / 2, y + kCellH / 2 + 4, c->failing == 0 ? "#fff" : "#000",
                         c->failing == 0 ? fmt::format("ok {}", c->judged)
                                         : fmt::format("{}/{}", c->failing, c->judged));
      s += "</g>\n";
    }
  }
  return s + "</svg>\n";
}

std::string comparison_svg(const std::vector<std::pair<std::string, Rating>>& ratings, int columns) {
  std::vector<const Rating*> all;
  for (const auto& [label, r] : ratings) all.push_back(&r);
  const EnvelopeGrid grid = envelope_grid(all);
  const int map_w = kLeft + kCellW * static_cast<int>(grid.offsets.size()) + kRight;
  const int map_h = kTop + kCellH * static_cast<int>(grid.scales.size()) + kBottom;
  constexpr int kLabel = 22, kKey = 28;
  const int n = static_cast<int>(ratings.size());
  const int cols = std::max(1, std::min(columns, n));
  const int rows = (n + cols - 1) / cols;
  const int w = cols * map_w, h = rows * (kLabel + map_h) + kKey;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<title>Operating envelopes: {}</title>\n"
      "<rect width=\"{}\" height=\"{}\" fill=\"#fff\"/>\n",
      w, h, w, h, html_escape(ratings.empty() ? std::string() : suite_text(ratings.front().second.suite)), w, h);
  for (int k = 0; k < n; ++k) {
    const int x = (k % cols) * map_w, y = (k / cols) * (kLabel + map_h);
    const Rating& r = ratings[static_cast<std::size_t>(k)].second;
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
                     x + kLeft + kCellW * static_cast<double>(grid.offsets.size()) / 2, y + 16,
                     html_escape(r.implementation));
    s += fmt::format("<g transform=\"translate({} {})\">\n", x, y + kLabel) +
         envelope_svg(r, grid, fmt::format("envelope-{}", k)) + "</g>\n";
  }
  // The key: safe, failing (a few fractions), no query.
  const int ky = h - kKey + 8;
  int kx = 10;
  const auto key = [&](const std::string& fill, const std::string& text) {
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n", kx,
                     ky, fill, kx + 18, ky + 11, html_escape(text));
    kx += 26 + 7 * static_cast<int>(text.size());
  };
  key(kSafe, "ok N: none of N queries fails");
  key(failing_colour(1e-3), "F/N: F of N fail (0.1%)");
  key(failing_colour(0.05), "5%");
  key(failing_colour(0.5), "50% or more");
  key(kNone, "no query");
  return s + "</svg>\n";
}

std::string rating_html(const Rating& r) {
  const std::string title = "slidecheck rating: " + r.implementation + " (" + r.suite.shape + ", " +
                            r.suite.precision + ")";
  std::string h = page_head(title);
  h += "<table>\n";
  const auto fact = [&h](const std::string& name, const std::string& value) {
    h += "<tr><th>" + html_escape(name) + "</th>" + td(html_escape(value)) + "</tr>\n";
  };
  fact("implementation", r.implementation);
  fact("suite", suite_text(r.suite));
  fact("suite hash (SHA-256)", r.suite.hash);
  fact("queries", fmt::format("{} ({} checked, {} invalid starts; {} also at level C)", r.queries, r.checked,
                              r.invalid_starts, r.suite.level_c_queries));
  fact("speed", fmt::format("{:.4g} queries per second ({} queries in {:.4g} s, {} threads) on {}",
                            r.speed.queries_per_second(), r.speed.queries, r.speed.seconds, r.speed.threads,
                            r.speed.machine));
  fact("slidecheck", r.tool_version);
  h += "</table>\n";
  h += fmt::format("<p class=\"verdict\"><strong>{} of {} checked queries fail.</strong></p>\n<ul>\n", r.failing,
                   r.checked);
  for (const std::string& line : safe_up_to(r)) h += "<li>" + html_escape(line) + "</li>\n";
  h += "</ul>\n";

  h += "<h2 id=\"envelope\">Operating envelope</h2>\n" + legend();
  const EnvelopeGrid grid = envelope_grid({&r});
  h += "<figure>\n" + envelope_svg(r, grid, "envelope-0") +
       "<figcaption>Queries failing with any class (a start inside: not recovered from), per world scale and offset from the origin "
       "(queries with no place, such as adversarial constructions, are in the class table only).</figcaption>\n"
       "</figure>\n";

  h += "<h2 id=\"classes\">Failure classes</h2>\n<table>\n<tr><th>class</th><th>level</th><th>failing</th>"
       "<th>worst depth / radius</th><th>first failing query</th><th>minimal case</th><th>meaning</th></tr>\n";
  for (const ClassRating& c : r.classes) {
    const bool bad = c.failing > 0;
    h += "<tr>" + td("<code>" + html_escape(c.name) + "</code>") + td(html_escape(c.level)) +
         td(rate_text(c), bad ? "n bad" : c.judged > 0 ? "n ok" : "n") +
         td(c.has_depth && bad ? html_escape(fmt::format("{:.4g} ({})", c.worst_depth_over_radius,
                                                         formats::to_hex(c.worst_depth_over_radius)))
                               : std::string("&ndash;"),
            "n") +
         td(c.first_query.empty() ? std::string("&ndash;") : "<code>" + html_escape(c.first_query) + "</code>") +
         td(c.minimal_case.empty() ? std::string("&ndash;")
                                   : "<a href=\"" + html_href(c.minimal_case) + "\"><code>" +
                                         html_escape(c.minimal_case) + "</code></a>") +
         td(html_escape(class_meaning(c.name))) + "</tr>\n";
  }
  h += "</table>\n";

  h += "<h2 id=\"parts\">Parts of the suite</h2>\n<table>\n<tr><th>part</th><th>queries</th><th>checked</th>"
       "<th>failing</th></tr>\n";
  for (const PartRating& p : r.parts)
    h += "<tr>" + td(html_escape(p.name)) + td(fmt::format("{}", p.queries), "n") +
         td(fmt::format("{}", p.checked), "n") + td(fmt::format("{}", p.failing), p.failing > 0 ? "n bad" : "n") +
         "</tr>\n";
  h += "</table>\n";
  h += "<p>rating.json beside this page holds every number losslessly (docs/formats.md, \"Rating files\").</p>\n";
  return h + "</body>\n</html>\n";
}

std::string comparison_html(const std::vector<std::pair<std::string, Rating>>& ratings) {
  std::string h = page_head("slidecheck ratings compared");
  if (!ratings.empty())
    h += "<p>Suite: " + html_escape(suite_text(ratings.front().second.suite)) + ", hash <code>" +
         html_escape(ratings.front().second.suite.hash) + "</code>.</p>\n";
  h += "<table>\n<tr><th>class</th>";
  for (const auto& [label, r] : ratings)
    h += "<th>" + html_escape(r.implementation) + "<br><code>" + html_escape(label) + "</code></th>";
  h += "</tr>\n<tr><th>failing (any class)</th>";
  for (const auto& [label, r] : ratings)
    h += td(html_escape(fmt::format("{} of {}", r.failing, r.checked)), r.failing > 0 ? "n bad" : "n ok");
  h += "</tr>\n";
  // Classes in the order of the first rating that has them.
  std::vector<std::string> names;
  for (const auto& [label, r] : ratings)
    for (const ClassRating& c : r.classes)
      if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
  for (const std::string& name : names) {
    h += "<tr><th title=\"" + html_escape(class_meaning(name)) + "\"><code>" + html_escape(name) + "</code></th>";
    for (const auto& [label, r] : ratings) {
      const auto it = std::find_if(r.classes.begin(), r.classes.end(), [&](const ClassRating& c) { return c.name == name; });
      if (it == r.classes.end()) h += td("&ndash;", "n");
      else h += td(rate_text(*it), it->failing > 0 ? "n bad" : it->judged > 0 ? "n ok" : "n");
    }
    h += "</tr>\n";
  }
  h += "<tr><th>queries per second</th>";
  for (const auto& [label, r] : ratings) h += td(fmt::format("{:.4g}", r.speed.queries_per_second()), "n");
  h += "</tr>\n</table>\n";

  h += "<h2 id=\"envelope\">Operating envelopes</h2>\n" + legend();
  std::vector<const Rating*> all;
  for (const auto& [label, r] : ratings) all.push_back(&r);
  const EnvelopeGrid grid = envelope_grid(all);
  for (std::size_t k = 0; k < ratings.size(); ++k) {
    const auto& [label, r] = ratings[k];
    h += "<figure>\n" + envelope_svg(r, grid, fmt::format("envelope-{}", k)) + "<figcaption><strong>" +
         html_escape(r.implementation) + "</strong> (<code>" + html_escape(label) + "</code>)";
    for (const std::string& line : safe_up_to(r)) h += "<br>" + html_escape(line);
    h += "</figcaption>\n</figure>\n";
  }
  return h + "</body>\n</html>\n";
}

}  // namespace slidecheck::verify::rate
