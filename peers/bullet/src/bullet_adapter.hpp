#pragma once
// Bullet through slidecheck's verifier (docs/fast.md): each query of a corpus is run by two Bullet
// "algorithms" in Bullet's precision (btScalar), and every resting path is judged by the
// verifier's exact level A (verify/level_a/invariants.hpp) on the mesh the run was given, exactly as
// slidecheck's own algorithms are. Compiled once per Bullet build (peers/bullet/CMakeLists.txt).
//
// bullet_sweep: per frame, one convexSweepTest of a btSphereShape along the displacement
//   (ClosestConvexResultCallback), the resting position start + fraction * displacement computed
//   in btScalar as Bullet users do; then the gravity move the same way (the second pass).
// bullet_kcc: btKinematicCharacterController (btPairCachingGhostObject, btSphereShape of the
//   query's radius, step height 0), walk direction = displacement, updateAction once per frame,
//   gravity = the query's gravity per frame; the resting positions are the ghost's origin after
//   each frame. The controller's path inside a frame (recovery, forward slides, drop) is not
//   observable, so its segments are the chords between frame ends.
#include <slidecheck/peers/bullet_peer.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::peers {

enum class BulletAlgorithm { sweep, kcc };
inline constexpr BulletAlgorithm all_bullet_algorithms[] = {BulletAlgorithm::sweep, BulletAlgorithm::kcc};
std::string_view bullet_algorithm_name(BulletAlgorithm a);  ///< "bullet_sweep", "bullet_kcc"
std::optional<BulletAlgorithm> find_bullet_algorithm(std::string_view name);

/// The precision of the linked Bullet build.
formats::Precision bullet_precision();

/// Bullet's documented absolute stopping gap (btConvexCast, 0.001 units): end poses whose exact
/// clearance is in [0, kBulletGap] are counted apart.
inline constexpr double kBulletGap = 0.001;

/// One convexSweepTest of bullet_sweep.
struct SweepEvent {
  int frame = 0, pass = 0;  ///< pass 0 the move, 1 gravity
  bool hit = false;
  double fraction = 1;      ///< Bullet's closest hit fraction (btScalar, widened exactly)
  double start_clearance = 0, end_clearance = 0;  ///< exact distance - r, rounded to double
};

/// What one (query, Bullet algorithm) run did and what the exact checks found.
struct BulletRecord {
  std::string query_id, query_file, scene_file;
  BulletAlgorithm algorithm = BulletAlgorithm::sweep;
  formats::Precision precision = formats::Precision::single_float;
  formats::Query query;  ///< as run: rounded to the precision
  std::string skipped;  ///< non-empty: not run, and why (ellipsoids)
  bool invalid_start = false;
  std::string start_detail;
  std::vector<Vec3<double>> resting_positions;  ///< start first, widened exactly
  std::vector<verify::Failure> failures;
  double min_clearance = 0;
  std::vector<SweepEvent> sweeps;        ///< bullet_sweep
  std::vector<double> frame_clearances;  ///< bullet_kcc: each frame end's exact clearance
  int frames_without_pair = 0;           ///< bullet_kcc: frames whose sweeps saw no object (BulletPeer::Walk)
  bool failed() const { return !failures.empty(); }
  bool has(verify::FailureClass c) const;
};

/// Each scene's Bullet world, built on first use, in btScalar. Holds the scenes it was given, so
/// that a scene's address never names another scene's world.
class BulletScenes {
 public:
  BulletPeer& world(const std::shared_ptr<const verify::SceneContext>& sc);

 private:
  std::map<const verify::SceneContext*, std::pair<std::shared_ptr<const verify::SceneContext>, std::unique_ptr<BulletPeer>>>
      worlds_;
};

/// Runs `query` (its scene `sc`) with `algorithm` and judges it.
BulletRecord run_bullet(const std::shared_ptr<const verify::SceneContext>& sc, BulletScenes& worlds,
                        const formats::Query& query, const std::string& query_file, BulletAlgorithm algorithm);

/// Level A on record.resting_positions (set before): check_invariants against `index` (the mesh
/// in the run's precision), then nonfinite; fills failures, min_clearance, invalid_start. Public
/// so that a test can give it a path of its own.
void judge(const verify::TriangleIndex& index, const std::vector<verify::StepLocation>& where, BulletRecord& r);

/// Exact clearance (distance - r) of a sphere at p, rounded to double; negative inside, NaN
/// for a non-finite p, +inf for an empty mesh.
double exact_clearance(const verify::TriangleIndex& index, double radius, const Vec3<double>& p);

/// One records.jsonl line (numbers of positions and fractions as hexfloat text).
nlohmann::ordered_json to_json(const BulletRecord& r);

/// Counts for summary.txt, per algorithm.
class BulletTally {
 public:
  void add(const BulletRecord& r);
  bool any_failure() const;
  std::string text() const;

 private:
  struct Worst {
    double depth = 0;
    std::string query_id, scene_file;
  };
  struct Counts {
    std::size_t records = 0, skipped = 0, invalid_start = 0, failing = 0;
    std::map<verify::FailureClass, std::size_t> queries_with, rows;
    Worst deepest_penetration, deepest_path_penetration;
    // bullet_sweep
    std::size_t sweeps = 0, hits = 0, zero_hits = 0, zero_hits_clear_start = 0, zero_hits_start_within_gap = 0,
                hit_ends_inside = 0, hit_ends_within_gap = 0, hit_ends_beyond_gap = 0;
    std::vector<double> hit_end_gaps;  ///< non-negative clearances of hit ends
    // bullet_kcc
    std::size_t frames = 0, frame_ends_inside = 0, frame_ends_within_gap = 0, frames_without_pair = 0,
                failing_without_pair = 0;  ///< failing queries with a frame that saw no object
  };
  std::map<BulletAlgorithm, Counts> counts_;
};

}  // namespace slidecheck::peers
