#pragma once
/// One sweep of `robust` without a response: the skin of the move and the first blocking
/// contact of the contact radius in the local eSpace of the start, which is what robust's first
/// pass runs when nothing touches the start. Benchmarks and fast/'s sweep_robust compare it
/// with other engines' sweeps.

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>

#include <optional>

namespace slidecheck::robust {

/// One sweep of robust, without a response: the detection robust's first pass runs when nothing
/// touches the start (benchmarks and fast/sweep_robust compare it with other engines' sweeps).
/// `hit`: the first blocking contact (local eSpace, time in [0, 1], in the working type);
/// `end`: where the centre stops, in R3 (rounded to nearest: no start contacts to round away
/// from), at clearance h from what it hit in exact arithmetic; `skin`: s of the move and
/// `contact_radius` 1 + h (derive_skin, Skin).
template <Number T>
struct SweepOutcome {
  std::optional<BlockingContact<Working<T>>> hit;
  Vec3<T> end;
  Working<T> skin{};
  Working<T> contact_radius{};
};

/// The end of a sweep from `start` (R3) that stopped at the local eSpace point `stop`.
template <Number T, Number W>
Vec3<T> sweep_end(const Vec3<T>& start, const Vec3<W>& stop, const EllipsoidRadii<W>& radii) {
  return convert_to<T>(Vec3<W>(convert_to<W>(start) + from_espace(stop, radii)));
}

/// sweep (below) on a mesh already in the local eSpace around `start` (to_local_espace, in the
/// working type): fast/ passes the triangles of the move's reach only.
template <num::WithSqrt T>
SweepOutcome<T> sweep_in_local_espace(const Vec3<T>& start, const Vec3<T>& velocity, const EllipsoidRadii<T>& radii,
                                      const IndexedMesh<Working<T>>& local, const Tolerances& tol = {}) {
  using W = Working<T>;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const W zero(0);
  const Vec3<W> origin(zero, zero, zero), move = to_espace(convert_to<W>(velocity), wide_radii);
  const Skin<W> skin = derive_skin(origin, move, tol, &local, origin_magnitude(convert_to<W>(start), wide_radii),
                                   num::unit_roundoff<T>());
  SweepOutcome<T> out;
  out.skin = skin.skin;
  out.contact_radius = skin.contact_radius;
  out.hit = first_blocking_contact(origin, move, skin.contact_radius, local);
  Vec3<W> stop = move;  // slide_pass's step: origin + d t, or origin at t = 0
  if (out.hit) stop = num::sign(out.hit->time) > 0 ? Vec3<W>(origin + move * out.hit->time) : origin;
  out.end = sweep_end(start, stop, wide_radii);
  return out;
}

/// The sweep of the ellipsoid `radii` from `start` by `velocity` (R3) against `mesh` (R3): the
/// skin of the move, then first_blocking_contact of the contact radius in the local frame.
template <num::WithSqrt T>
SweepOutcome<T> sweep(const Vec3<T>& start, const Vec3<T>& velocity, const EllipsoidRadii<T>& radii,
                      const IndexedMesh<T>& mesh, const Tolerances& tol = {}) {
  using W = Working<T>;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const Vec3<W> origin = convert_to<W>(start);
  IndexedMesh<W> local;
  local.vertices.reserve(mesh.vertices.size());
  for (const Vec3<T>& v : mesh.vertices) local.vertices.push_back(to_local_espace(convert_to<W>(v), origin, wide_radii));
  local.triangles = mesh.triangles;
  return sweep_in_local_espace(start, velocity, radii, local, tol);
}

}  // namespace slidecheck::robust
