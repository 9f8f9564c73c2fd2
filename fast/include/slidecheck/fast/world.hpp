#pragma once
/// A level prepared for the fast path: the mesh (R3, as the reference takes it) and its BVH.
/// Built once, then shared read-only by any number of threads (batch.hpp).

#include <slidecheck/fast/bvh_build.hpp>
#include <slidecheck/reference/geometry/ellipsoid_space.hpp>

#include <optional>
#include <vector>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace slidecheck::fast {

template <IeeeBinary F>
struct World {
  IndexedMesh<F> mesh;
  Bvh<F> bvh;
  CandidateSlack slack;
  /// The tree's triangles mapped to eSpace for one ellipsoid (prepare_espace): the sweep then
  /// skips the 9 divisions per candidate. Equal to to_espace(leaf_triangles[k], radii) bit for bit.
  std::vector<Triangle<F>> espace_leaf_triangles;
  std::optional<EllipsoidRadii<F>> espace_radii;
  /// For the always-candidates, the plane checkTriangle computes in eSpace for those radii
  /// (Fauerby's PLANE: normalized cross product, plane constant), so a sweep can skip the ones
  /// whose slab |distance| < 1 the move cannot reach (always_candidate_may_hit).
  struct AlwaysPlane {
    std::uint32_t triangle = 0;
    bool never_hit = false;  ///< the float cross product is exactly zero: culled by checkTriangle
    Vec3<F> normal;
    F plane_constant{};
  };
  std::vector<AlwaysPlane> espace_always_planes;
  /// Some vertex coordinate is NaN (build): sweep_robust then filters no triangle by its box
  /// (robust/slab_filter.hpp needs every coordinate in the magnitude; boxes skip NaN).
  bool has_nan_coordinate = false;

  /// Caches the eSpace triangles for `radii` (a game's player size): later sweeps with exactly
  /// these radii read them instead of dividing.
  void prepare_espace(const EllipsoidRadii<F>& radii) {
    espace_leaf_triangles.clear();
    espace_leaf_triangles.reserve(bvh.leaf_triangles.size());
    for (const Triangle<F>& t : bvh.leaf_triangles) espace_leaf_triangles.push_back(to_espace(t, radii));
    espace_radii = radii;
    espace_always_planes.clear();
    for (std::uint32_t id : bvh.always_candidates) {
      const Triangle<F> t = to_espace(mesh.triangle(id), radii);
      // The same expressions as fauerby::check_triangle (reference/detection/fauerby.hpp).
      const Vec3<F> raw = cross(t.p1 - t.p0, t.p2 - t.p0);
      AlwaysPlane a;
      a.triangle = id;
      a.never_hit = is_zero(raw);
      if (!a.never_hit) {
        a.normal = normalized(raw);
        a.plane_constant = -(a.normal.x * t.p0.x + a.normal.y * t.p0.y + a.normal.z * t.p0.z);
      }
      espace_always_planes.push_back(a);
    }
  }
  bool espace_prepared_for(const EllipsoidRadii<F>& radii) const {
    return espace_radii && espace_radii->radii == radii.radii;
  }

  static World build(IndexedMesh<F> m, const BvhBuildOptions& options = {}) {
    World w;
    w.bvh = build_bvh(m, options);
    w.mesh = std::move(m);
    w.slack = options.slack;
    for (const Vec3<F>& v : w.mesh.vertices)
      w.has_nan_coordinate = w.has_nan_coordinate || std::isnan(v.x) || std::isnan(v.y) || std::isnan(v.z);
    return w;
  }

  /// Throws unless the radii are within what the BVH's triangle slack was built for
  /// (CandidateSlack::max_anisotropy): beyond it bit-identity with the reference is not covered.
  void check_radii(const EllipsoidRadii<F>& radii) const {
    if (!slack.float_faithful) return;
    const double lo = std::min({std::fabs(double(radii.radii.x)), std::fabs(double(radii.radii.y)),
                                std::fabs(double(radii.radii.z))});
    const double hi = std::max({std::fabs(double(radii.radii.x)), std::fabs(double(radii.radii.y)),
                                std::fabs(double(radii.radii.z))});
    if (hi > lo * slack.max_anisotropy)
      throw std::invalid_argument("fast::World: ellipsoid anisotropy above CandidateSlack::max_anisotropy");
  }
};

/// False only if fauerby::check_triangle cannot hit the always-candidate `a` for the eSpace
/// move (base, velocity): every hit of checkTriangle passes its plane-interval step, which needs
/// the float signed distance sd + t ndv within [-1, 1] for some t in [0, 1]. Here that
/// distance is evaluated in double from the same plane; it is rejected only when it
/// stays above 1 + margin over the whole move, the margin bounding the rounding of the float
/// sd, ndv, t0 and t1 and of this evaluation itself (each a few u_F of the magnitudes
/// involved; 16 u_F in all). A NaN never rejects.
template <IeeeBinary F>
bool always_candidate_may_hit(const typename World<F>::AlwaysPlane& a, const Vec3<F>& base, const Vec3<F>& velocity) {
  if (a.never_hit) return false;
  using L = double;  // long double (x87) costs several times more on the 1,000 slivers of a map
  const L n[3] = {a.normal.x, a.normal.y, a.normal.z};
  const L b[3] = {base.x, base.y, base.z}, v[3] = {velocity.x, velocity.y, velocity.z};
  const L pc = a.plane_constant;
  const L f0 = n[0] * b[0] + n[1] * b[1] + n[2] * b[2] + pc;
  const L ndv = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  const L f1 = f0 + ndv;
  const L size = std::fabs(n[0] * b[0]) + std::fabs(n[1] * b[1]) + std::fabs(n[2] * b[2]) + std::fabs(pc) +
                 std::fabs(n[0] * v[0]) + std::fabs(n[1] * v[1]) + std::fabs(n[2] * v[2]) + 2;
  const L margin = 16 * L(num::unit_roundoff<F>()) * size;
  const L lower = (f0 > 0) == (f1 > 0) ? std::min(std::fabs(f0), std::fabs(f1)) : L(0);
  return !(lower > 1 + margin);
}

}  // namespace slidecheck::fast
