#pragma once
// `verify --implementation fast`: fast/ (the BVH implementation) run beside the reference run
// from the same input and compared with it bit for bit, and the fast worlds the seeds' culled
// runs take their triangles from.
#include "run/framed_run.hpp"

#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace slidecheck::verify {

/// A scene's fast::Worlds (SceneContext::fast_worlds): [robust's options, the seeds'] per
/// precision, each built once from the mesh that precision's reference run sees.
struct FastWorlds {
  std::once_flag once_float[2], once_double[2];
  std::unique_ptr<fast::World<float>> float_worlds[2];
  std::unique_ptr<fast::World<double>> double_worlds[2];
};

/// The fast::World of the scene's mesh in precision `p`, with robust's BVH options or the
/// seeds' default ones, built on first use.
template <IeeeBinary F>
const fast::World<F>& fast_world(const SceneContext& sc, Precision p, bool robust);

/// The R3 region of a seed's culled run: `box` rounded outward to F. False when the seeds'
/// float-faithful BVH does not cover these radii (World::check_radii: ellipsoids), or the box is
/// not finite: then the run takes the whole mesh.
template <IeeeBinary F>
bool seed_cull_region(const fast::World<F>& world, const EllipsoidRadii<F>& radii, const exact::Box& box,
                      fast::Aabb<F>& region);

/// Every collision query's float-faithful box (fast/'s r3_query_box) lies in `region`.
template <IeeeBinary F>
bool seed_queries_inside(const std::vector<TraceEvent<F>>& events, const EllipsoidRadii<F>& radii,
                         const fast::World<F>& world, const fast::Aabb<F>& region);

/// "(x, y, z)" with every coordinate's exact text.
std::string position_text(const Vec3<double>& v);

/// What the fast run of a record did: its resting positions (the start, then every pass's path
/// joined, as the reference's) and the first frame where it differs from the reference run.
struct FastOutcome {
  std::vector<Vec3<double>> resting_positions;
  std::optional<Failure> mismatch;
};

/// Runs fast/ frame by frame, each frame from the fast run's own previous end (what a game
/// using fast/ would do; while the runs agree it is the reference's input), and compares each
/// frame with the reference frame bit for bit, triangle indices mapped to the scene's.
template <IeeeBinary F>
FastOutcome run_and_compare_fast(const SceneContext& sc, Algorithm algorithm, Precision precision,
                                 const AlgorithmTolerances& tol, const FramedRun<F>& framed,
                                 const std::vector<std::size_t>& original_index,
                                 const std::optional<Vec3<double>>& offset_for_testing);

}  // namespace slidecheck::verify
