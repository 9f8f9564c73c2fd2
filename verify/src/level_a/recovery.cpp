// Recovery from a start inside the mesh (recovery.hpp).
#include <slidecheck/verify/level_a/recovery.hpp>

#include <slidecheck/verify/level_a/invariants.hpp>

#include <cmath>

namespace slidecheck::verify {

double clearance_at(const TriangleIndex& index, const Vec3<double>& radii, const Vec3<double>& p) {
  // A path (p, p): when p overlaps, level A reports the start's clearance; otherwise the least
  // clearance over its resting positions, which is p's.
  const StepLocation here{};
  return check_invariants(index, radii, {p, p}, {here, here}).min_clearance;
}

namespace {

/// judge_recovery on the clearances `clearance(p)` of the body at p.
template <class Clearance>
std::optional<Failure> recovery_of(Clearance&& clearance_of, const std::vector<Vec3<double>>& path,
                                   double requested_motion, const StepLocation& where) {
  if (path.empty()) return std::nullopt;
  const Vec3<double>& start = path.front();
  const Vec3<double>& end = path.back();
  if (!is_finite(start) || !is_finite(end)) return std::nullopt;
  const double c0 = clearance_of(start);
  if (!(c0 < 0)) return std::nullopt;  // the start is clear: the usual invariants apply
  const double ce = clearance_of(end);
  Failure f;
  f.kind = FailureClass::recovery;
  f.where = where;
  f.depth = ce < 0 ? -ce : 0;
  const std::string depths = "starts " + exact_text(-c0) + " deep, ends " +
                             (ce < 0 ? exact_text(-ce) + " deep" : "clear");
  if (ce < c0) {
    f.detail = "the path ends deeper than it starts: " + depths;
    return f;
  }
  if (ce < 0 && requested_motion >= -c0) {
    f.detail = "the path is still inside at its end although the query's motion (" + exact_text(requested_motion) +
               ") reaches beyond the start's depth: " + depths;
    return f;
  }
  return std::nullopt;
}

}  // namespace

double clearance_at(const TriangleIndex& index, const Shape<double>& shape, const Vec3<double>& p) {
  const StepLocation here{};
  return check_invariants(index, shape, {p, p}, {here, here}).min_clearance;
}

std::optional<Failure> judge_recovery(const TriangleIndex& index, const Vec3<double>& radii,
                                      const std::vector<Vec3<double>>& path, double requested_motion,
                                      const StepLocation& where) {
  return recovery_of([&](const Vec3<double>& p) { return clearance_at(index, radii, p); }, path, requested_motion,
                     where);
}

std::optional<Failure> judge_recovery(const TriangleIndex& index, const Shape<double>& shape,
                                      const std::vector<Vec3<double>>& path, double requested_motion,
                                      const StepLocation& where) {
  return recovery_of([&](const Vec3<double>& p) { return clearance_at(index, shape, p); }, path, requested_motion,
                     where);
}

}  // namespace slidecheck::verify
