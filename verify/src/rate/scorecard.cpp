// The scorecard text, the gate's regressions and the comparison table (scorecard.hpp).
#include <slidecheck/verify/rate/scorecard.hpp>

#include <slidecheck/formats/errors.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

namespace slidecheck::verify::rate {

namespace {

/// "1e-02", "1", "1e+04": a scale or offset as people read it.
std::string short_number(double x) { return fmt::format("{:g}", x); }

std::string percent(std::size_t n, std::size_t of) {
  return of == 0 ? "-" : fmt::format("{:.3g}%", 100.0 * double(n) / double(of));
}

std::vector<double> scales_of(const Rating& r) {
  std::set<double> s;
  for (const EnvelopeCell& c : r.envelope) s.insert(c.scale);
  return {s.begin(), s.end()};
}

std::vector<double> offsets_of(const Rating& r) {
  std::set<double> s;
  for (const EnvelopeCell& c : r.envelope) s.insert(c.offset);
  return {s.begin(), s.end()};
}

const EnvelopeCell* cell_at(const Rating& r, double scale, double offset) {
  for (const EnvelopeCell& c : r.envelope)
    if (c.scale == scale && c.offset == offset) return &c;
  return nullptr;
}

std::string pad(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }
std::string lpad(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

const ClassRating* class_of(const Rating& r, const std::string& name) {
  for (const ClassRating& c : r.classes)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace

std::vector<std::string> safe_up_to(const Rating& r) {
  std::vector<std::string> out;
  for (const double scale : scales_of(r)) {
    std::optional<double> safe;
    const EnvelopeCell* first_failing = nullptr;
    for (const double offset : offsets_of(r)) {
      const EnvelopeCell* c = cell_at(r, scale, offset);
      if (!c || c->judged == 0) continue;
      if (!c->safe()) {
        first_failing = c;
        break;
      }
      safe = offset;
    }
    std::string line = safe ? "safe up to offset " + short_number(*safe) + " at scale " + short_number(scale)
                            : "not safe at scale " + short_number(scale);
    if (first_failing) {
      std::string classes;
      for (const auto& [name, n] : first_failing->classes) classes += (classes.empty() ? "" : ", ") + name;
      line += fmt::format(" (fails at offset {}: {} of {} queries, {})", short_number(first_failing->offset),
                          first_failing->failing, first_failing->judged, classes);
    }
    out.push_back(line);
  }
  return out;
}

std::string envelope_table(const Rating& r) {
  const std::vector<double> offsets = offsets_of(r);
  std::ostringstream out;
  constexpr std::size_t w = 12;
  out << pad("scale \\ offset", 15);
  for (const double o : offsets) out << lpad(short_number(o), w);
  out << '\n';
  for (const double s : scales_of(r)) {
    out << pad(short_number(s), 15);
    for (const double o : offsets) {
      const EnvelopeCell* c = cell_at(r, s, o);
      const std::string text = !c || c->judged == 0 ? "-"
                               : c->safe()          ? fmt::format("ok {}", c->judged)
                                                    : fmt::format("{}/{}", c->failing, c->judged);
      out << lpad(text, w);
    }
    out << '\n';
  }
  for (const std::string& line : safe_up_to(r)) out << "  " << line << '\n';
  return out.str();
}

std::string scorecard_text(const Rating& r) {
  std::ostringstream out;
  out << "rating of " << r.implementation << " on slidecheck-suite " << r.suite.version << " (" << r.suite.variant
      << ", " << r.suite.shape << ", " << r.suite.precision << ", slice " << r.suite.slice << ", sha256 "
      << r.suite.hash.substr(0, 16) << "...)\n";
  out << r.queries << " queries: " << r.checked << " checked, " << r.invalid_starts << " invalid starts, " << r.failing
      << " failing\n\n";
  out << pad("class", 22) << pad("level", 7) << lpad("failing", 16) << lpad("rate", 10) << "  worst depth/r  first query\n";
  for (const ClassRating& c : r.classes) {
    out << pad(c.name, 22) << pad(c.level, 7) << lpad(fmt::format("{} of {}", c.failing, c.judged), 16)
        << lpad(percent(c.failing, c.judged), 10) << "  "
        << pad(c.has_depth && c.failing > 0 ? fmt::format("{:.3g}", c.worst_depth_over_radius) : "-", 13) << "  "
        << (c.first_query.empty() ? "-" : c.first_query) << '\n';
    if (!c.minimal_case.empty()) out << "    minimal case: " << c.minimal_case << '\n';
  }
  out << "\noperating envelope (queries per world scale and offset from the origin, starts inside included; ok N: "
         "none of N fails, F/N: F of N fail)\n"
      << envelope_table(r);
  out << "\nparts:";
  for (const PartRating& p : r.parts)
    out << ' ' << p.name << ' ' << p.failing << "/" << p.queries << (&p == &r.parts.back() ? "" : ",");
  out << " (failing/queries; an invalid start fails only by not recovering)\n";
  out << fmt::format("speed: {} queries in {:.1f} s, {:.1f} queries/s ({}, {} threads)\n", r.speed.queries,
                     r.speed.seconds, r.speed.queries_per_second(), r.speed.machine,
                     r.speed.threads == 0 ? std::string("all") : std::to_string(r.speed.threads));
  return out.str();
}

void check_comparable(const Rating& baseline, const Rating& current, const std::string& file) {
  const SuiteIdentity& b = baseline.suite;
  const SuiteIdentity& c = current.suite;
  auto refuse = [&](const std::string& what, const std::string& was, const std::string& is) {
    throw formats::InputError(file, 0,
                              "the baseline rates " + what + " " + was + ", this run " + is +
                                  ": ratings of different suites, shapes, precisions or slices are not comparable");
  };
  if (b.version != c.version) refuse("suite version", std::to_string(b.version), std::to_string(c.version));
  if (b.variant != c.variant) refuse("suite variant", b.variant, c.variant);
  if (b.shape != c.shape) refuse("shape", b.shape, c.shape);
  if (b.precision != c.precision) refuse("precision", b.precision, c.precision);
  if (b.slice != c.slice) refuse("slice", b.slice, c.slice);
  if (b.hash != c.hash) refuse("the suite of hash", b.hash, c.hash);
}

std::vector<Regression> regressions(const Rating& baseline, const Rating& current) {
  std::vector<Regression> out;
  for (const ClassRating& c : current.classes) {
    const ClassRating* b = class_of(baseline, c.name);
    const std::size_t before = b ? b->failing : 0;
    if (c.failing > before) {
      out.push_back({fmt::format("{}: {} of {} failing, was {}{}", c.name, c.failing, c.judged, before,
                                 c.first_query.empty() ? "" : " (first: " + c.first_query + ")"),
                     c.minimal_case});
    } else if (c.has_depth && c.failing > 0 && b && c.worst_depth_over_radius > b->worst_depth_over_radius) {
      out.push_back({fmt::format("{}: worst depth/r {:.6g}, was {:.6g}", c.name, c.worst_depth_over_radius,
                                 b->worst_depth_over_radius),
                     c.minimal_case});
    }
  }
  for (const EnvelopeCell& b : baseline.envelope) {
    if (!b.safe()) continue;
    const EnvelopeCell* c = cell_at(current, b.scale, b.offset);
    if (!c || c->safe()) continue;
    std::string classes;
    for (const auto& [name, n] : c->classes) classes += (classes.empty() ? "" : ", ") + name;
    out.push_back({fmt::format("envelope: scale {} offset {} was safe, now {} of {} queries fail ({})",
                               short_number(b.scale), short_number(b.offset), c->failing, c->judged, classes),
                   ""});
  }
  return out;
}

std::string compare_text(const std::vector<std::pair<std::string, Rating>>& ratings) {
  std::ostringstream out;
  constexpr std::size_t w = 22;
  out << "ratings compared:\n";
  for (std::size_t i = 0; i < ratings.size(); ++i) {
    const Rating& r = ratings[i].second;
    out << fmt::format("  [{}] {}: {} ({} {} {}, slice {}, sha256 {}...)\n", i + 1, ratings[i].first, r.implementation,
                       r.suite.variant, r.suite.shape, r.suite.precision, r.suite.slice, r.suite.hash.substr(0, 16));
  }
  out << '\n' << pad("class", 22);
  for (std::size_t i = 0; i < ratings.size(); ++i) out << lpad(fmt::format("[{}]", i + 1), w);
  out << '\n';
  std::vector<std::string> names;
  for (const auto& [file, r] : ratings)
    for (const ClassRating& c : r.classes)
      if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
  for (const std::string& name : names) {
    out << pad(name, 22);
    for (const auto& [file, r] : ratings) {
      const ClassRating* c = class_of(r, name);
      out << lpad(c ? fmt::format("{} of {}", c->failing, c->judged) : "-", w);
    }
    out << '\n';
  }
  out << pad("failing (any)", 22);
  for (const auto& [file, r] : ratings) out << lpad(fmt::format("{} of {}", r.failing, r.queries), w);
  out << '\n' << pad("queries/s", 22);
  for (const auto& [file, r] : ratings) out << lpad(fmt::format("{:.1f}", r.speed.queries_per_second()), w);
  out << "\n\nenvelopes:\n";
  for (std::size_t i = 0; i < ratings.size(); ++i) {
    out << "[" << i + 1 << "] " << ratings[i].second.implementation << '\n' << envelope_table(ratings[i].second);
  }
  return out.str();
}

namespace {

/// The envelope's safe cells, and a rating's "safe up to" lines as one Markdown list item.
std::size_t safe_cells(const Rating& r) {
  return std::count_if(r.envelope.begin(), r.envelope.end(), [](const EnvelopeCell& c) { return c.safe(); });
}
std::string safe_up_to_item(const Rating& r) {
  std::string out = "- **" + r.implementation + "**:";
  const std::vector<std::string> lines = safe_up_to(r);
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? " " : "; ") + lines[i];
  return out + ".\n";
}

}  // namespace

std::string compare_markdown(const std::vector<std::pair<std::string, Rating>>& ratings) {
  std::vector<std::string> failed, clean;  // classes some rating fails, classes none fails
  for (const auto& [file, r] : ratings)
    for (const ClassRating& c : r.classes) {
      if (std::find(failed.begin(), failed.end(), c.name) != failed.end()) continue;
      const bool fails = std::any_of(ratings.begin(), ratings.end(), [&](const auto& x) {
        const ClassRating* k = class_of(x.second, c.name);
        return k && k->failing > 0;
      });
      if (fails) {
        failed.push_back(c.name);
        std::erase(clean, c.name);
      } else if (std::find(clean.begin(), clean.end(), c.name) == clean.end()) {
        clean.push_back(c.name);
      }
    }
  std::ostringstream out;
  out << "| implementation | failing queries |";
  for (const std::string& name : failed) out << " `" << name << "` |";
  out << " safe envelope cells | queries/s |\n|---|---:|";
  for (std::size_t i = 0; i < failed.size(); ++i) out << "---:|";
  out << "---:|---:|\n";
  for (const auto& [file, r] : ratings) {
    const std::size_t safe = safe_cells(r);
    out << "| " << r.implementation << " | " << r.failing << " of " << r.queries << " |";
    for (const std::string& name : failed) {
      const ClassRating* c = class_of(r, name);
      out << ' ' << (c ? fmt::format("{} of {}", c->failing, c->judged) : std::string("-")) << " |";
    }
    out << fmt::format(" {} of {} | {:.1f} |\n", safe, r.envelope.size(), r.speed.queries_per_second());
  }
  if (!clean.empty()) {
    out << "\nNo rating above fails";
    for (std::size_t i = 0; i < clean.size(); ++i)
      out << (i == 0 ? " " : i + 1 == clean.size() ? " or " : ", ") << '`' << clean[i] << '`';
    out << ".\n";
  }
  out << '\n';
  for (const auto& [file, r] : ratings) out << safe_up_to_item(r);
  return out.str();
}

std::string compare_markdown_brief(const std::vector<std::pair<std::string, Rating>>& ratings) {
  constexpr std::size_t kShown = 3;
  std::ostringstream out;
  out << "| implementation | failing queries | failing most (failing of judged) | safe envelope cells | queries/s |\n"
         "|---|---:|---|---:|---:|\n";
  for (const auto& [file, r] : ratings) {
    std::vector<const ClassRating*> worst;
    for (const ClassRating& c : r.classes)
      if (c.failing > 0) worst.push_back(&c);
    // Most failing first; equal counts keep the classes' order.
    std::stable_sort(worst.begin(), worst.end(),
                     [](const ClassRating* a, const ClassRating* b) { return a->failing > b->failing; });
    if (worst.size() > kShown) worst.resize(kShown);
    std::string classes;
    for (const ClassRating* c : worst)
      classes += fmt::format("{}`{}` {} of {}", classes.empty() ? "" : ", ", c->name, c->failing, c->judged);
    const std::size_t safe = safe_cells(r);
    out << fmt::format("| {} | {} of {} | {} | {} of {} | {:.1f} |\n", r.implementation, r.failing, r.queries,
                       classes.empty() ? "none" : classes, safe, r.envelope.size(), r.speed.queries_per_second());
  }
  bool first = true;
  for (const auto& [file, r] : ratings) {
    if (safe_cells(r) == 0) continue;
    out << (first ? "\n" : "") << safe_up_to_item(r);
    first = false;
  }
  return out.str();
}

}  // namespace slidecheck::verify::rate
