#pragma once
/// robust's capsule pass on a sub-mesh, with the boxes that make collide_and_slide's region
/// argument (collide_and_slide.hpp) hold for it: the fast twin of
/// robust::capsule_collide_and_slide (reference/response/robust/capsule.hpp).
///
/// The reference runs the sphere's pass on the prism mesh of its local copy (every triangle's
/// eight prism triangles, in order, in the capsule's local eSpace: radius 1, half axis h). So the
/// capsule reads the level exactly where the sphere's pass would read the prism mesh: through
/// the skin's reach, the start check, every sweep and the certified write-backs' sweeps, each
/// skipping a prism triangle whose box misses the step's local box q. A prism triangle's box
/// meets q only if its mesh triangle has a vertex within q grown by |h| and one rounding per axis
/// (prism_reach_box); robust_world_box maps that to R3. When every such box lies in the region,
/// the sub-mesh's prism mesh holds every prism triangle the whole mesh's run could read, in the
/// same order (the sub-mesh keeps the level's order, and prism triangle 8 i + k belongs to
/// triangle i), so each step, nearest-hit ties included, is the whole-mesh run's.
///
/// The pass is the reference's own (robust::CapsulePasses: prism mesh built once for both passes,
/// the frame set for it, triangles named by the mesh's) given the box recorder as its tracer, plus
/// the boxes of the skin's reach and the start check; tests/fast/test_capsule_differential.cpp
/// compares the two bit for bit.

#include <slidecheck/fast/robust_boxes.hpp>
#include <slidecheck/reference/response/robust/capsule.hpp>

#include <optional>

namespace slidecheck::fast::slide_detail {

/// The capsule's pass on `sub` (the file comment), every step's box handed to `require` as an R3
/// box that must lie in the region; `vertices`: the sub-mesh's R3 vertex box (contact_radius_bound).
template <IeeeBinary F, class Require>
SlideResult<F> run_robust_capsule_covered(const SlideInput<F>& in, const IndexedMesh<F>& sub,
                                          const robust::Tolerances& tol, const std::optional<Aabb<F>>& vertices,
                                          Require&& require) {
  using W = robust::Working<F>;
  const Vec3<W> h = robust::capsule_espace_half_axis(in);  // the reference's refusals, before any work
  const Vec3<double> hd(double(h.x), double(h.y), double(h.z));
  auto need = [&](const exact::Box& b) { require(robust_world_box(prism_reach_box(b, hd), in.start, in.radii)); };
  robust::CapsulePasses<W> passes{h, std::nullopt, std::nullopt};
  return robust::slide_in_local_espace(
      in, sub,
      [&](const Vec3<W>& start, const Vec3<W>& velocity, const IndexedMesh<W>& local, robust::LocalFrame<W>& frame,
          SlidePass<W>& pass, int index) {
        const W cr = contact_radius_bound(in, start, velocity, passes.prism_of(local), frame, tol, vertices, h);
        const W zero(0);
        need(exact::swept_box(start, velocity, Vec3<W>(W(2), W(2), W(2))));
        need(exact::swept_box(start, Vec3<W>(zero, zero, zero), Vec3<W>(cr, cr, cr)));
        return passes.run(start, velocity, local, tol, frame, pass, index,
                          RobustSweepBoxes<W, decltype(need)>{&need, cr});
      },
      // The certified write-backs sweep the prism mesh: their boxes are grown like the pass's.
      need);
}

}  // namespace slidecheck::fast::slide_detail
