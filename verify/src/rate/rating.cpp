// Aggregating verify's records into a rating (rating.hpp).
#include <slidecheck/verify/rate/rating.hpp>

#include <slidecheck/verify/run/failure_classes.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <variant>

namespace slidecheck::verify::rate {

namespace {

std::string level_name(FailureLevel l) {
  switch (l) {
    case FailureLevel::a: return "A";
    case FailureLevel::b: return "B";
    case FailureLevel::c: return "C";
    case FailureLevel::other: return "other";
  }
  return "other";
}

/// The body's smallest positive length: a sphere's or capsule's radius, an ellipsoid's least semi-axis.
double body_radius(const formats::Query& q) {
  double r = std::numeric_limits<double>::infinity();
  std::visit(
      [&](const auto& s) {
        for (std::size_t i = 0; i < s.length_count; ++i)
          if (s.must_be_positive(i)) r = std::min(r, double(s.length(i)));
      },
      q.shape);
  return r;
}

/// Whether class `c` is judged on this record: its queries (failure_classes.hpp, JudgedOn) and,
/// for a level C class, only where the ideal run was made (level C skips a capsule, saying why).
bool judged_on(FailureClass c, const QueryRecord& r, const Placement& p) {
  const FailureClassInfo& info = failure_class_info(c);
  if (info.found_by == FoundBy::level_c && !(p.level_c && r.ideal && r.ideal->error.empty())) return false;
  switch (info.judged_on) {
    case JudgedOn::checked: return !r.invalid_start;
    case JudgedOn::invalid_starts: return r.invalid_start;
    case JudgedOn::every_query: return true;
  }
  return false;
}

}  // namespace

Rating aggregate(const std::vector<QueryRecord>& records, const std::map<std::string, Placement>& placements,
                 const std::vector<std::string>& part_order) {
  Rating out;
  std::vector<FailureClass> classes;
  for (const FailureClass c : all_failure_classes) {
    const FailureClassInfo& info = failure_class_info(c);
    if (info.found_by == FoundBy::fast) continue;  // `rate` never runs fast/ beside the reference
    classes.push_back(c);
    ClassRating cr;
    cr.name = info.name;
    cr.level = level_name(info.level);
    cr.has_depth = info.has_depth;
    out.classes.push_back(std::move(cr));
  }
  for (const std::string& part : part_order) out.parts.push_back({.name = part});
  std::map<std::pair<double, double>, EnvelopeCell> cells;
  for (const QueryRecord& r : records) {
    const auto it = placements.find(r.query_id);
    if (it == placements.end()) throw std::invalid_argument("a record of query '" + r.query_id + "', not in the suite");
    const Placement& p = it->second;
    ++out.queries;
    (r.invalid_start ? out.invalid_starts : out.checked) += 1;
    out.failing += r.failed();
    const double radius = body_radius(r.query);
    for (std::size_t k = 0; k < classes.size(); ++k) {
      if (!judged_on(classes[k], r, p)) continue;
      ClassRating& cr = out.classes[k];
      ++cr.judged;
      if (!r.has(classes[k])) continue;
      ++cr.failing;
      if (cr.first_query.empty()) cr.first_query = r.query_id;
      if (!cr.has_depth) continue;
      for (const Failure& f : r.failures)
        if (f.kind == classes[k]) {
          cr.worst_depth = std::max(cr.worst_depth, f.depth);
          cr.worst_depth_over_radius = std::max(cr.worst_depth_over_radius, f.depth / radius);
        }
    }
    if (p.scale && p.offset) {
      EnvelopeCell& cell = cells[{*p.scale, *p.offset}];
      cell.scale = *p.scale;
      cell.offset = *p.offset;
      // Every query placed here, a start inside too: it fails here when it is not recovered from.
      ++cell.judged;
      cell.failing += r.failed();
      for (const FailureClass c : classes)
        if (r.has(c)) ++cell.classes[std::string(to_string(c))];
    }
    auto part = std::find_if(out.parts.begin(), out.parts.end(), [&](const PartRating& x) { return x.name == p.part; });
    if (part == out.parts.end()) {
      out.parts.push_back({.name = p.part});
      part = out.parts.end() - 1;
    }
    ++part->queries;
    part->checked += !r.invalid_start;
    part->failing += r.failed();
  }
  for (auto& [key, cell] : cells) out.envelope.push_back(std::move(cell));
  return out;
}

}  // namespace slidecheck::verify::rate
