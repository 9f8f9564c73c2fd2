// Recovery from a start inside the mesh (recovery.hpp).
#include <slidecheck/verify/level_a/recovery.hpp>

#include <slidecheck/verify/level_a/clear_grid_position.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>

#include <cmath>
#include <limits>
#include <variant>

namespace slidecheck::verify {

double clearance_at(const TriangleIndex& index, const Vec3<double>& radii, const Vec3<double>& p) {
  // A path (p, p): when p overlaps, level A reports the start's clearance; otherwise the least
  // clearance over its resting positions, which is p's.
  const StepLocation here{};
  return check_invariants(index, radii, {p, p}, {here, here}).min_clearance;
}

namespace {

/// What judge_recovery's second clause finds on the precision's grid within the motion's reach
/// of the start: the nearest clear position, if any, and whether every position within reach
/// was searched (recovery_grid_steps).
struct GridSearch {
  std::optional<GridPosition> clear;
  bool complete = false;
};

/// The nearest position of F within `reach` of `start` clear of the mesh and reached without
/// the centre crossing a triangle (nearest_clear_position).
template <IeeeBinary F, class Body>
GridSearch clear_position_within(const TriangleIndex& index, const Body& body, const Vec3<double>& half_widths,
                                 const Vec3<double>& start, double reach) {
  GridSearch out;
  for (int k = 0; k < 3; ++k)
    if (std::fabs(start[k]) > std::numeric_limits<F>::max()) return out;  // beyond F: not searched
  const GridBox grid = grid_within<F>(start, reach, recovery_grid_steps, out.complete);
  std::vector<Triangle<double>> near;
  for (std::size_t i : index.candidates(body_reach(grid, half_widths))) near.push_back(index.mesh().triangle(i));
  out.clear = nearest_clear_position(start, grid, body, near, reach);
  return out;
}

/// clear_position_within for the query's shape and the run's precision (the body as
/// check_invariants takes it: eSpace radii, or the capsule).
GridSearch clear_position_within(const TriangleIndex& index, const Shape<double>& shape, Precision precision,
                                 const Vec3<double>& start, double reach) {
  const Vec3<double> widths = extent(shape);
  auto search = [&](const auto& body) {
    return precision == Precision::single_float ? clear_position_within<float>(index, body, widths, start, reach)
                                                : clear_position_within<double>(index, body, widths, start, reach);
  };
  if (has_espace(shape)) return search(espace_radii(shape).radii);
  return search(std::get<Capsule<double>>(shape));
}

/// judge_recovery on the clearances `clearance(p)` of the body at p; `clear_within(reach)`:
/// what the precision's grid holds within `reach` of the start (GridSearch).
template <class Clearance, class ClearWithin>
std::optional<Failure> recovery_of(Clearance&& clearance_of, ClearWithin&& clear_within,
                                   const std::vector<Vec3<double>>& path, double requested_motion,
                                   const StepLocation& where) {
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
    // The motion's length, with the rounding of its sum and of the positions' differences to
    // spare: a position at that distance is searched rather than missed.
    const GridSearch grid = clear_within(requested_motion * (1 + 0x1p-40));
    if (!grid.clear && grid.complete) return std::nullopt;  // no run in this precision could be clear
    f.detail = "the path is still inside at its end although the query's motion (" + exact_text(requested_motion) +
               ") reaches beyond the start's depth: " + depths +
               (grid.clear ? "; a position of the run's precision " + exact_text(grid.clear->distance) +
                                 " from the start is clear: (" + exact_text(grid.clear->p.x) + ", " +
                                 exact_text(grid.clear->p.y) + ", " + exact_text(grid.clear->p.z) + ")"
                           : "; the run's precision was searched " + std::to_string(recovery_grid_steps) +
                                 " positions to each side of the start, none clear, and the motion reaches further");
    return f;
  }
  return std::nullopt;
}

}  // namespace

double clearance_at(const TriangleIndex& index, const Shape<double>& shape, const Vec3<double>& p) {
  const StepLocation here{};
  return check_invariants(index, shape, {p, p}, {here, here}).min_clearance;
}

std::optional<Failure> judge_recovery(const TriangleIndex& index, const Shape<double>& shape,
                                      const std::vector<Vec3<double>>& path, double requested_motion,
                                      const StepLocation& where, Precision precision) {
  return recovery_of([&](const Vec3<double>& p) { return clearance_at(index, shape, p); },
                     [&](double reach) { return clear_position_within(index, shape, precision, path.front(), reach); },
                     path, requested_motion, where);
}

}  // namespace slidecheck::verify
