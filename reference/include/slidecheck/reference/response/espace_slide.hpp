#pragma once
/// The frame shared by the eSpace response algorithms (fauerby, linahan, monter): Fauerby's
/// collideAndSlide (2003, appendix F). Map the ellipsoid's move into eSpace, run the move
/// pass, then the separate gravity pass from the eSpace end of the first (sec. 4.3), and map
/// the result back to R3.

#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/response/slide_result.hpp>

namespace slidecheck {

/// `run_pass(espace_start, espace_velocity, espace_mesh, pass, pass_index)` runs one pass
/// in eSpace, appends its eSpace path (after the start, which is already there) to `pass`
/// and returns the eSpace end. The gravity pass is skipped when gravity is exactly zero.
template <num::WithSqrt T, class RunPass>
SlideResult<T> slide_in_espace(const SlideInput<T>& in, const IndexedMesh<T>& mesh, RunPass&& run_pass) {
  const IndexedMesh<T> espace_mesh = to_espace(mesh, in.radii);
  SlideResult<T> out;
  auto pass_from = [&](const Vec3<T>& espace_start, const Vec3<T>& r3_velocity, int index) {
    SlidePass<T> pass;
    pass.path.push_back(espace_start);
    const Vec3<T> end = run_pass(espace_start, to_espace(r3_velocity, in.radii), espace_mesh, pass, index);
    for (Vec3<T>& p : pass.path) p = from_espace(p, in.radii);
    out.passes.push_back(std::move(pass));
    return end;
  };
  Vec3<T> end = pass_from(to_espace(in.start, in.radii), in.velocity, 0);
  out.passes.front().path.front() = in.start;  // the R3 start itself, not its eSpace round trip
  if (!is_zero(in.gravity)) end = pass_from(end, in.gravity, 1);
  out.final_position = from_espace(end, in.radii);
  return out;
}

}  // namespace slidecheck
