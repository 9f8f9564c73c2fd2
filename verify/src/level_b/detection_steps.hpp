#pragma once
// Level B on detection (docs/level-b.md): each collision query's answer (hit, triangle,
// feature) against the exact first contact of the same query, and Fauerby's checkTriangle
// step by step (Appendix E), from the float eSpace mesh and the base point and velocity of the
// collision query each step belongs to.
#include "level_b/step_context.hpp"

#include <slidecheck/reference/detection/detection_result.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

namespace slidecheck::verify::level_b {

/// The exact first contact of one collision query and what it took to find it.
struct ExactContact {
  DetectionResult<Q> hit;
  bool start_contact = false;  ///< within r already at t = 0 (contact time 0)
};

template <IeeeBinary F>
class DetectionSteps {
 public:
  /// `compare_queries`: each collision query's answer is compared with the exact first contact
  /// of the unit sphere, back faces culled (the algorithm's detection is Fauerby's).
  DetectionSteps(StepContext<F>& cx, bool compare_queries) : cx_(cx), compare_queries_(compare_queries) {}

  void on(const trace::fauerby::PlaneInterval<F>& e);
  void on(const trace::fauerby::InsideTest<F>& e);
  void on(const trace::fauerby::VertexRoot<F>& e);
  void on(const trace::fauerby::EdgeRoot<F>& e);
  void on(const trace::fauerby::NearestHit<F>& h);
  void on(const ev::CollisionQuery<F>& q);

  /// The exact travel distance t* |v| of the query's exact first contact against `threshold`
  /// (the decision of Fauerby's and Linahan's near point): nullopt when the exact detection
  /// has no comparable contact. Returns (outcome of distance >= threshold, or > when strict; margin).
  std::optional<std::pair<bool, std::int64_t>> exact_distance_versus(int pass, int iteration, F threshold,
                                                                      bool strict);

 private:
  /// exact::sweep_sphere_mesh's semantics (box filter, interval filter, strictly earlier
  /// replaces, nothing beats t = 0), with triangles converted to Rational only on demand.
  ExactContact exact_contact(const SweptSphere<Q>& s, const Vec3<F>& base, const Vec3<F>& vel);
  /// The hit/miss margin on triangle `tri`: the least of the graze margin (the exact least
  /// squared distance of the move's segment to the triangle against r^2 = 1) and, for an
  /// exact hit, the end-of-move margin (the exact time against 1).
  std::int64_t hit_margin(const SweptSphere<Q>& s, std::size_t tri, const DetectionResult<Q>* exact_hit);
  /// The exact first contact of the collision query at event `k` (computed once).
  const ExactContact& exact_for(std::size_t k);
  void check_detection(const ev::CollisionQuery<F>& q);
  /// The collision query a detection event belongs to, if its sub-steps are to be checked:
  /// always for the triangle the float run hit and the one the exact detection hits (their
  /// steps decide the query's answer), for every triangle with options.every_triangle.
  const ev::CollisionQuery<F>* owning_query(std::size_t triangle);
  /// getLowestRoot (Appendix D) exactly on the float coefficients: the lower root if in
  /// (0, max_r), else the upper one if in (0, max_r). Returns the root and the margin: the
  /// discriminant (b^2 against 4ac) and the chosen root against 0 and max_r, in ULPs.
  std::pair<std::optional<Surd>, std::int64_t> lowest_root(F a_f, F b_f, F c_f, F max_f);

  StepContext<F>& cx_;
  bool compare_queries_;
  std::map<std::size_t, ExactContact> exact_by_event_;
  std::map<std::pair<int, int>, ExactContact> exact_time_;
  const trace::fauerby::PlaneInterval<F>* last_plane_ = nullptr;
  std::optional<std::pair<Feature, int>> float_feature_;
};

extern template class DetectionSteps<float>;
extern template class DetectionSteps<double>;

}  // namespace slidecheck::verify::level_b
