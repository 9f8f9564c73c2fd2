// Level B: every traced step of a float run re-evaluated exactly from the step's own float
// inputs (local_error.hpp; docs/level-b.md has the list of steps, decisions and margins).
#include <slidecheck/verify/level_b/local_error.hpp>

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

namespace slidecheck::verify {
namespace {

using Q = Rational;
using detail::round_time_times_sqrt;
using detail::time_squared;
using detail::time_surd;
namespace ev = trace::response;

template <IeeeBinary F>
Vec3<Q> to_q(const Vec3<F>& v) {
  return {to_rational(v.x), to_rational(v.y), to_rational(v.z)};
}

/// |ulps| between two F values, saturated like ulp_distance.
template <IeeeBinary F>
std::int64_t ulp_gap(F x, F y) {
  const std::int64_t u = ulp_distance<F>(x, y);
  return u < 0 ? -u : u;
}

/// Fauerby's veryCloseDistance as the float run computes it (a constant, not a step).
template <IeeeBinary F>
F fauerby_very_close(const fauerby::Tolerances& t) {
  const F unit_scale = num::from_double<F>(t.units_per_meter) / F(100);
  return num::from_double<F>(t.very_close_distance) * unit_scale;
}

/// The exact first contact of one collision query and what it took to find it.
struct ExactContact {
  DetectionResult<Q> hit;
  bool start_contact = false;  ///< within r already at t = 0 (contact time 0)
};

template <IeeeBinary F>
class Checker {
 public:
  Checker(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
          const TracedRun<F>& run, std::span<const std::size_t> original_index, const LocalErrorOptions& options)
      : tol_(tol),
        run_(run),
        original_index_(original_index),
        espace_(to_espace(mesh, in.radii)),
        filter_(espace_),
        triangles_(espace_.triangle_count()),
        options_(options) {
    // Where each (pass, iteration) collision query is, and how each pass ends: the float
    // outcome of several decisions is which event follows.
    next_query_.assign(run.events.size(), run.events.size());
    for (std::size_t k = run.events.size(); k-- > 0;) {
      const bool is_query = std::holds_alternative<ev::CollisionQuery<F>>(run.events[k]);
      next_query_[k] = is_query ? k : (k + 1 < run.events.size() ? next_query_[k + 1] : run.events.size());
    }
    for (std::size_t k = 0; k < run.events.size(); ++k) {
      if (const auto* q = std::get_if<ev::CollisionQuery<F>>(&run.events[k])) queries_[{q->pass, q->iteration}] = k;
      if (const auto* s = std::get_if<ev::Stop<F>>(&run.events[k])) stops_[s->pass] = *s;
    }
  }

  LocalError check() {
    for (step_ = 0; step_ < run_.events.size(); ++step_) {
      try {
        std::visit([this](const auto& e) { on(e); }, run_.events[step_]);
      } catch (const std::domain_error&) {
        // A non-finite input (a NaN from a 0/0 upstream): the step has no exact value; the
        // NaN itself is level A's `nonfinite` failure.
      }
    }
    for (const DecisionCheck& d : out_.decisions)
      if (!d.agrees && !d.undecided && (!out_.first_divergent || d.where.step < out_.first_divergent->where.step))
        out_.first_divergent = DivergentStep{d.where, d.step, d.decision, d.margin_ulps};
    return std::move(out_);
  }

 private:
  // ---- bookkeeping -------------------------------------------------------------------

  std::size_t scene_index(std::size_t i) const { return original_index_.empty() ? i : original_index_[i]; }

  const Triangle<Q>& triangle_q(std::size_t i) {
    if (!triangles_[i]) {
      const Triangle<F> t = espace_.triangle(i);
      triangles_[i] = Triangle<Q>{to_q(t.p0), to_q(t.p1), to_q(t.p2)};
    }
    return *triangles_[i];
  }

  template <class E>
  StepLocation where(const E& e) const {
    return {e.pass, e.iteration, static_cast<int>(step_)};
  }
  StepLocation where_step(int pass, int iteration) const { return {pass, iteration, static_cast<int>(step_)}; }

  void value(std::string_view step, std::string quantity, const StepLocation& at, F computed, const Surd& exact) {
    out_.values.push_back(surd_value_error<F>(step, std::move(quantity), at, computed, exact));
  }
  void value(std::string_view step, const std::string& quantity, const StepLocation& at, const Vec3<F>& computed,
             const Vec3<Q>& exact) {
    value(step, quantity + ".x", at, computed.x, Surd::rational(exact.x));
    value(step, quantity + ".y", at, computed.y, Surd::rational(exact.y));
    value(step, quantity + ".z", at, computed.z, Surd::rational(exact.z));
  }
  void value(std::string_view step, const std::string& quantity, const StepLocation& at, const Vec3<F>& computed,
             const Surd (&exact)[3]) {
    value(step, quantity + ".x", at, computed.x, exact[0]);
    value(step, quantity + ".y", at, computed.y, exact[1]);
    value(step, quantity + ".z", at, computed.z, exact[2]);
  }

  /// Records a decision and, when float and exact disagree, its failure.
  void decide(std::string_view step, std::string decision, const StepLocation& at, std::string float_outcome,
              std::string exact_outcome, std::int64_t margin, FailureClass kind, std::optional<std::size_t> tri,
              std::string detail = {}, std::optional<bool> agrees = std::nullopt) {
    DecisionCheck d;
    d.step = std::string(step);
    d.decision = std::move(decision);
    d.where = at;
    d.agrees = agrees.value_or(float_outcome == exact_outcome);
    d.float_outcome = std::move(float_outcome);
    d.exact_outcome = std::move(exact_outcome);
    d.margin_ulps = margin;
    if (!d.agrees) {
      Failure f;
      f.kind = kind;
      f.where = at;
      f.has_triangle = tri.has_value();
      f.triangle = tri.value_or(0);
      f.detail = d.step + " " + d.decision + ": float " + d.float_outcome + ", exact " + d.exact_outcome +
                 ", margin " + std::to_string(margin) + " ulps" + (detail.empty() ? "" : "; " + detail);
      out_.failures.push_back(std::move(f));
    }
    out_.decisions.push_back(std::move(d));
  }
  static std::string yes_no(bool b) { return b ? "true" : "false"; }

  /// Records a decision of a detection sub-step: a disagreement there is a divergence (it
  /// counts for first_divergent) but not a failure by itself; the query-level hit, triangle
  /// and feature decisions say whether it changed the detection's answer.
  void note(std::string_view step, std::string decision, const StepLocation& at, std::string float_outcome,
            std::string exact_outcome, std::int64_t margin) {
    DecisionCheck d;
    d.step = std::string(step);
    d.decision = std::move(decision);
    d.where = at;
    d.agrees = float_outcome == exact_outcome;
    d.float_outcome = std::move(float_outcome);
    d.exact_outcome = std::move(exact_outcome);
    d.margin_ulps = margin;
    out_.decisions.push_back(std::move(d));
  }

  /// The (pass, iteration) collision query, which every response step reads its inputs from.
  const ev::CollisionQuery<F>& query(int pass, int iteration) const {
    return std::get<ev::CollisionQuery<F>>(run_.events.at(queries_.at({pass, iteration})));
  }
  /// The last event of type E at or before the current step with this (pass, iteration).
  template <class E>
  const E* previous(int pass, int iteration) const {
    for (std::size_t k = step_ + 1; k-- > 0;)
      if (const E* e = std::get_if<E>(&run_.events[k]); e && e->pass == pass && e->iteration == iteration) return e;
    return nullptr;
  }
  bool stopped_with(int pass, int iteration, StopReason r) const {
    const auto it = stops_.find(pass);
    return it != stops_.end() && it->second.iteration == iteration && it->second.reason == r;
  }

  // ---- detection ----------------------------------------------------------------------

  /// exact::sweep_sphere_mesh's semantics (box filter, interval filter, strictly earlier
  /// replaces, nothing beats t = 0), with triangles converted to Rational only on demand.
  ExactContact exact_contact(const SweptSphere<Q>& s, const Vec3<F>& base, const Vec3<F>& vel) {
    ExactContact out;
    const exact::Box box = exact::swept_box(base, vel, Vec3<F>(F(1), F(1), F(1)));
    const exact::SweepOptions options{};  // back faces culled as Fauerby; interval filter on
    for (std::size_t i = 0; i < espace_.triangle_count(); ++i) {
      if (!filter_.may_hit(i, box)) continue;
      DetectionResult<Q> r = exact::sweep_sphere_triangle_filtered(s, triangle_q(i), options, i);
      if (!r.hit) continue;
      if (!out.hit.hit || compare(r.time, out.hit.time) < 0) out.hit = std::move(r);
      if (out.hit.time.is_linear() && num::sign(out.hit.time.c) == 0) break;
    }
    out.start_contact = out.hit.hit && out.hit.time.is_linear() && num::sign(out.hit.time.c) == 0;
    return out;
  }

  /// The hit/miss margin on triangle `tri`: the least of the graze margin (the exact least
  /// squared distance of the move's segment to the triangle against r^2 = 1) and, for an
  /// exact hit, the end-of-move margin (the exact time against 1).
  std::int64_t hit_margin(const SweptSphere<Q>& s, std::size_t tri, const DetectionResult<Q>* exact_hit) {
    const Q d2 = segment_triangle_squared_distance(s.center, Vec3<Q>(s.center + s.velocity), triangle_q(tri));
    std::int64_t m = ulp_gap<F>(round_to_nearest<F>(d2), F(1));
    if (exact_hit) m = std::min(m, ulp_gap<F>(round_surd<F>(time_surd(exact_hit->time)), F(1)));
    return m;
  }

  /// The exact first contact of the collision query at event `k` (computed once).
  const ExactContact& exact_for(std::size_t k) {
    auto it = exact_by_event_.find(k);
    if (it == exact_by_event_.end()) {
      const auto& q = std::get<ev::CollisionQuery<F>>(run_.events[k]);
      const SweptSphere<Q> s{to_q(q.base_point), to_q(q.velocity), Q(1)};
      it = exact_by_event_.emplace(k, exact_contact(s, q.base_point, q.velocity)).first;
    }
    return it->second;
  }

  void check_detection(const ev::CollisionQuery<F>& q) {
    const StepLocation at = where(q);
    const SweptSphere<Q> s{to_q(q.base_point), to_q(q.velocity), Q(1)};
    const ExactContact& e = exact_for(step_);
    exact_time_[{q.pass, q.iteration}] = e;
    const std::string fo = q.hit ? "hit" : "miss";
    if (e.start_contact) {
      // Already within r at t = 0: Fauerby's getLowestRoot wants a root > 0, a sphere at
      // exactly r moving parallel is not in contact, an embedded one gets only exit roots.
      // By design, not by rounding: recorded, not compared (level A sees the overlap).
      decide("collision_query", "hit", at, fo, fo, -1, FailureClass::missed_hit, std::nullopt,
             "exact contact at t = 0 (start in contact): not compared");
      out_.decisions.back().exact_outcome = "start_contact";
      return;
    }
    const std::string eo = e.hit.hit ? "hit" : "miss";
    std::int64_t margin = -1;
    if (e.hit.hit)
      margin = hit_margin(s, e.hit.triangle, &e.hit);
    else if (q.hit)
      margin = hit_margin(s, q.triangle, nullptr);
    const std::size_t deciding = e.hit.hit ? e.hit.triangle : q.triangle;
    decide("collision_query", "hit", at, fo, eo, margin, q.hit ? FailureClass::spurious_hit : FailureClass::missed_hit,
           (q.hit || e.hit.hit) ? std::optional<std::size_t>(scene_index(deciding)) : std::nullopt);
    if (!q.hit || !e.hit.hit) return;

    value("collision_query", "time", at, q.time, time_surd(e.hit.time));
    if (q.triangle != e.hit.triangle) {
      // The margin: the float triangle's own exact time against the exact first contact's.
      std::int64_t m = -1;
      const DetectionResult<Q> own = exact::sweep_sphere_triangle_filtered(s, triangle_q(q.triangle), {}, q.triangle);
      if (own.hit && compare(own.time, e.hit.time) == 0) {
        // An exact tie: both triangles are first contacts at the same time (a seam or a
        // crease touched on their shared edge or vertex). The exact rule's lowest index is a
        // convention, and the responses derive the plane from the contact point, not the
        // triangle: the float run's choice is as good, so it agrees (margin 0: a tie).
        decide("collision_query", "triangle", at, std::to_string(scene_index(q.triangle)),
               std::to_string(scene_index(e.hit.triangle)) + " (tied exactly with " +
                   std::to_string(scene_index(q.triangle)) + ")",
               0, FailureClass::wrong_triangle, scene_index(q.triangle), {}, true);
        return;
      }
      if (own.hit)
        m = ulp_gap<F>(round_surd<F>(time_surd(own.time)), round_surd<F>(time_surd(e.hit.time)));
      decide("collision_query", "triangle", at, std::to_string(scene_index(q.triangle)),
             std::to_string(scene_index(e.hit.triangle)), m, FailureClass::wrong_triangle, scene_index(q.triangle));
      return;
    }
    decide("collision_query", "triangle", at, std::to_string(scene_index(q.triangle)),
           std::to_string(scene_index(e.hit.triangle)), -1, FailureClass::wrong_triangle, scene_index(q.triangle));
    if (!float_feature_) return;
    const auto [ff, fi] = *float_feature_;
    const std::string ffo = std::string(to_string(ff)) + " " + std::to_string(fi);
    const std::string efo = std::string(to_string(e.hit.feature)) + " " + std::to_string(e.hit.feature_index);
    std::int64_t m = -1;
    bool agrees = ffo == efo;
    if (!agrees) {
      // The margin: the float feature's own entry root against the exact contact time. Equal
      // times are a tie, not a disagreement: at the contact time the sphere touches the
      // triangle at one point, and a feature entered at that very time holds it (Fauerby
      // names the face where the exact rule names the smaller edge or vertex).
      const QuadraticRoot<Q> own = exact::detail::entry_root(s, triangle_q(q.triangle), ff, fi);
      if (num::sign(own.a) != 0 && num::sign(own.discriminant()) >= 0) {
        m = ulp_gap<F>(round_surd<F>(time_surd(own)), round_surd<F>(time_surd(e.hit.time)));
        agrees = compare(own, e.hit.time) == 0;
      }
    }
    decide("collision_query", "feature", at, ffo, efo, m, FailureClass::wrong_feature, scene_index(q.triangle),
           agrees && ffo != efo ? "a tie: both features hold the contact point" : "", agrees);
  }

  /// The exact travel distance t* |v| of the query's exact first contact against `threshold`
  /// (the decision of Fauerby's and Linahan's near point): nullopt when the exact detection
  /// has no comparable contact. Returns (outcome of distance >= threshold, or > when strict; margin).
  std::optional<std::pair<bool, std::int64_t>> exact_distance_versus(int pass, int iteration, F threshold,
                                                                      bool strict) {
    const auto it = exact_time_.find({pass, iteration});
    if (it == exact_time_.end() || !it->second.hit.hit || it->second.start_contact) return std::nullopt;
    const ev::CollisionQuery<F>& q = query(pass, iteration);
    const Q vv = length_squared(to_q(q.velocity));
    const Surd t2 = time_squared(it->second.hit.time);
    const Q th = to_rational(threshold);
    const int c = compare(Surd{Q(t2.a * vv), Q(t2.b * vv), t2.q}, Q(th * th));  // (t* |v|)^2 vs threshold^2
    const bool outcome = strict ? c > 0 : c >= 0;
    const F d = round_time_times_sqrt<F>(it->second.hit.time, vv);
    return std::pair{outcome, ulp_gap<F>(d, threshold)};
  }

  // ---- events -------------------------------------------------------------------------

  // Fauerby's checkTriangle, step by step (Appendix E). Inputs: the triangle of the float
  // eSpace mesh, and the base point and velocity of the collision query the event belongs to.

  /// The collision query a detection event belongs to, if its sub-steps are to be checked:
  /// always for the triangle the float run hit and the one the exact detection hits (their
  /// steps decide the query's answer), for every triangle with options.every_triangle.
  const ev::CollisionQuery<F>* owning_query(std::size_t triangle) {
    const std::size_t k = next_query_[step_];
    if (k >= run_.events.size() || std::holds_alternative<pseudo_distance::Tolerances>(tol_)) return nullptr;
    const auto* q = &std::get<ev::CollisionQuery<F>>(run_.events[k]);
    if (options_.every_triangle || (q->hit && q->triangle == triangle)) return q;
    const ExactContact& e = exact_for(k);
    return e.hit.hit && e.hit.triangle == triangle ? q : nullptr;
  }

  void on(const trace::fauerby::PlaneInterval<F>& e) {
    using D = trace::fauerby::PlaneDecision;
    last_plane_ = &e;
    const ev::CollisionQuery<F>* q = owning_query(e.triangle);
    if (!q) return;
    const StepLocation at = where_step(q->pass, q->iteration);
    const Triangle<Q>& tri = triangle_q(e.triangle);
    const Vec3<Q> c = cross(Vec3<Q>(tri.p1 - tri.p0), Vec3<Q>(tri.p2 - tri.p0));
    const Q cc = length_squared(c);
    const Vec3<Q> vel = to_q(q->velocity);
    const Q k = dot(c, vel);
    const Q s = dot(c, Vec3<Q>(to_q(q->base_point) - tri.p0));
    // The exact step: n = c / |c|, plane constant -(n . p0), signed distance s / |c|, n . v =
    // k / |c|, and the slab times (+-1 - s / |c|) / (k / |c|) = (-s +- |c|) / k.
    D exact_d;
    std::int64_t margin = -1;
    const bool zero_velocity = is_zero(vel);
    if (num::sign(cc) == 0 || zero_velocity || num::sign(k) > 0) {
      exact_d = D::culled_back_face;
    } else if (num::sign(k) == 0) {
      exact_d = s * s >= cc ? D::parallel_outside : D::embedded;
      margin = ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(abs(s) / cc), cc}), F(1));
    } else {
      const Surd t_minus{Q(-s / k), Q(Q(-1) / k), cc}, t_plus{Q(-s / k), Q(Q(1) / k), cc};
      const Surd& lo = num::sign(k) > 0 ? t_minus : t_plus;
      const Surd& hi = num::sign(k) > 0 ? t_plus : t_minus;
      exact_d = (compare(lo, Q(1)) > 0 || compare(hi, Q(0)) < 0) ? D::interval_outside : D::interval;
      const F lo_f = round_surd<F>(lo), hi_f = round_surd<F>(hi);
      margin = std::min(ulp_gap<F>(lo_f, F(1)), ulp_gap<F>(hi_f, F(0)));
      if (exact_d == e.decision) {
        auto clamp01 = [](const Surd& t) {
          if (compare(t, Q(0)) < 0) return Surd::rational(Q(0));
          if (compare(t, Q(1)) > 0) return Surd::rational(Q(1));
          return t;
        };
        const bool clamp = exact_d == D::interval;
        value(e.name, "t0", at, e.t0, clamp ? clamp01(lo) : lo);
        value(e.name, "t1", at, e.t1, clamp ? clamp01(hi) : hi);
      }
    }
    note(e.name, "plane", at, std::string(trace::fauerby::to_string(e.decision)), std::string(trace::fauerby::to_string(exact_d)),
         margin);
    if (num::sign(cc) == 0 || zero_velocity) return;
    const Surd n[3] = {Surd{Q(0), Q(c.x / cc), cc}, Surd{Q(0), Q(c.y / cc), cc}, Surd{Q(0), Q(c.z / cc), cc}};
    value(e.name, "normal", at, e.normal, n);
    value(e.name, "plane_constant", at, e.plane_constant, Surd{Q(0), Q(-dot(c, tri.p0) / cc), cc});
    if (e.decision == D::culled_back_face) return;
    value(e.name, "signed_distance", at, e.signed_distance, Surd{Q(0), Q(s / cc), cc});
    value(e.name, "normal_dot_velocity", at, e.normal_dot_velocity, Surd{Q(0), Q(k / cc), cc});
  }

  void on(const trace::fauerby::InsideTest<F>& e) {
    const ev::CollisionQuery<F>* q = owning_query(e.triangle);
    if (!q) return;
    const StepLocation at = where_step(q->pass, q->iteration);
    const Triangle<Q>& tri = triangle_q(e.triangle);
    // The plane intersection point (basePoint - normal) + t0 velocity, from the plane step's
    // float normal and t0.
    if (last_plane_ && last_plane_->triangle == e.triangle)
      value(e.name, "point", at, e.point,
            Vec3<Q>(to_q(q->base_point) - to_q(last_plane_->normal) + to_q(q->velocity) * to_rational(last_plane_->t0)));
    // Appendix C in Rational, from the float point.
    const Vec3<Q> e10 = tri.p1 - tri.p0, e20 = tri.p2 - tri.p0, vp = to_q(e.point) - tri.p0;
    const Q a = dot(e10, e10), b = dot(e10, e20), cq = dot(e20, e20);
    const Q d = dot(vp, e10), ee = dot(vp, e20);
    const Q x = d * cq - ee * b, y = ee * a - d * b, z = x + y - (a * cq - b * b);
    value(e.name, "x", at, e.x, Surd::rational(x));
    value(e.name, "y", at, e.y, Surd::rational(y));
    value(e.name, "z", at, e.z, Surd::rational(z));
    // The sign-bit test with exact signs: an exact zero is +0 (not negative).
    const bool inside = num::sign(z) < 0 && num::sign(x) >= 0 && num::sign(y) >= 0;
    note(e.name, "inside", at, yes_no(e.inside), yes_no(inside), -1);
  }

  /// getLowestRoot (Appendix D) exactly on the float coefficients: the lower root if in
  /// (0, max_r), else the upper one if in (0, max_r). Returns the root and the margin: the
  /// discriminant (b^2 against 4ac) and the chosen root against 0 and max_r, in ULPs.
  std::pair<std::optional<Surd>, std::int64_t> lowest_root(F a_f, F b_f, F c_f, F max_f) {
    const Q a = to_rational(a_f), b = to_rational(b_f), c = to_rational(c_f), max_r = to_rational(max_f);
    const Q b2 = b * b, four_ac = Q(4) * a * c;
    std::int64_t margin = ulp_gap<F>(round_to_nearest<F>(b2), round_to_nearest<F>(four_ac));
    const Q d = b2 - four_ac;
    if (num::sign(d) < 0 || num::sign(a) == 0) return {std::nullopt, margin};
    const Surd minus{Q(-b / (Q(2) * a)), Q(Q(-1) / (Q(2) * a)), d}, plus{Q(-b / (Q(2) * a)), Q(Q(1) / (Q(2) * a)), d};
    const Surd& lower = num::sign(a) > 0 ? minus : plus;
    const Surd& upper = num::sign(a) > 0 ? plus : minus;
    for (const Surd* r : {&lower, &upper}) {
      if (compare(*r, Q(0)) > 0 && compare(*r, max_r) < 0) {
        const F rf = round_surd<F>(*r);
        margin = std::min({margin, ulp_gap<F>(rf, F(0)), ulp_gap<F>(rf, max_f)});
        return {*r, margin};
      }
    }
    return {std::nullopt, margin};
  }

  void on(const trace::fauerby::VertexRoot<F>& e) {
    const ev::CollisionQuery<F>* q = owning_query(e.triangle);
    if (!q) return;
    const StepLocation at = where_step(q->pass, q->iteration);
    const Vec3<Q> vel = to_q(q->velocity), base = to_q(q->base_point);
    const Vec3<Q>& p = triangle_q(e.triangle).vertex(e.vertex);
    value(e.name, "a", at, e.a, Surd::rational(length_squared(vel)));
    value(e.name, "b", at, e.b, Surd::rational(Q(2) * dot(vel, Vec3<Q>(base - p))));
    value(e.name, "c", at, e.c, Surd::rational(Q(length_squared(Vec3<Q>(p - base)) - 1)));
    const auto [root, margin] = lowest_root(e.a, e.b, e.c, e.max_root);
    note(e.name, "found", at, yes_no(e.found), yes_no(root.has_value()), margin);
    if (e.found && root) value(e.name, "root", at, e.root, *root);
  }

  void on(const trace::fauerby::EdgeRoot<F>& e) {
    const ev::CollisionQuery<F>* q = owning_query(e.triangle);
    if (!q) return;
    const StepLocation at = where_step(q->pass, q->iteration);
    const Vec3<Q> vel = to_q(q->velocity), base = to_q(q->base_point);
    const Triangle<Q>& tri = triangle_q(e.triangle);
    const Vec3<Q> edge = tri.vertex((e.edge + 1) % 3) - tri.vertex(e.edge);
    const Vec3<Q> btv = tri.vertex(e.edge) - base;
    const Q ees = length_squared(edge), vv = length_squared(vel), edv = dot(edge, vel), edb = dot(edge, btv);
    value(e.name, "a", at, e.a, Surd::rational(Q(ees * -vv + edv * edv)));
    value(e.name, "b", at, e.b, Surd::rational(Q(ees * (Q(2) * dot(vel, btv)) - Q(2) * edv * edb)));
    value(e.name, "c", at, e.c, Surd::rational(Q(ees * (Q(1) - length_squared(btv)) + edb * edb)));
    const auto [root, margin] = lowest_root(e.a, e.b, e.c, e.max_root);
    note(e.name, "found", at, yes_no(e.found), yes_no(root.has_value()), margin);
    if (!e.found || num::sign(ees) == 0) return;
    if (root) value(e.name, "root", at, e.root, *root);
    // f = (edge . velocity root - edge . baseToVertex) / |edge|^2 at the float root.
    const Q f = (edv * to_rational(e.root) - edb) / ees;
    value(e.name, "f", at, e.f, Surd::rational(f));
    const F f_rounded = round_to_nearest<F>(f);
    note(e.name, "within_segment", at, yes_no(e.within_segment), yes_no(num::sign(f) >= 0 && f <= Q(1)),
         std::min(ulp_gap<F>(f_rounded, F(0)), ulp_gap<F>(f_rounded, F(1))));
  }

  void on(const trace::fauerby::NearestHit<F>& h) {
    if (h.replaced) float_feature_ = std::pair{h.feature, h.feature_index};
    const ev::CollisionQuery<F>* q = owning_query(h.triangle);
    if (!q) return;
    // Fauerby's compared quantity t |velocity|, from the float t.
    value(h.name, "distance", where_step(q->pass, q->iteration), h.distance,
          Surd{Q(0), to_rational(h.time), length_squared(to_q(q->velocity))});
  }

  void on(const ev::CollisionQuery<F>& q) {
    // robust sweeps a skin-inflated, two-sided sphere with its own start-contact rule: the
    // unit-sphere, back-face-culled semantics below are not its decisions (docs/robust.md).
    if (!std::holds_alternative<pseudo_distance::Tolerances>(tol_) && !std::holds_alternative<robust::Tolerances>(tol_))
      check_detection(q);
    float_feature_.reset();
  }

  void on(const ev::NearPoint<F>& e) {
    const StepLocation at = where(e);
    const ev::CollisionQuery<F>& q = query(e.pass, e.iteration);
    const Vec3<Q> pos = to_q(q.base_point), vel = to_q(q.velocity);
    const Q vv = length_squared(vel);
    const Q t = to_rational(q.time);
    if (const auto* f = std::get_if<fauerby::Tolerances>(&tol_)) {
      const F vcd = fauerby_very_close<F>(*f);
      const Q s = to_rational(e.distance) - to_rational(vcd);
      value(e.name, "short_distance", at, e.short_distance, Surd::rational(s));
      if (const auto d = exact_distance_versus(e.pass, e.iteration, vcd, false))
        decide(e.name, "moved", at, yes_no(e.moved), yes_no(d->first), d->second, FailureClass::decision_flip,
               scene_index(q.triangle), "nearestDistance >= veryCloseDistance");
      if (e.moved && num::sign(vv) != 0) {
        // pos + unit(vel) (nearestDistance - veryCloseDistance)
        Surd p[3];
        const Q* c[3] = {&vel.x, &vel.y, &vel.z};
        const Q* o[3] = {&pos.x, &pos.y, &pos.z};
        for (int j = 0; j < 3; ++j) p[j] = Surd{*o[j], Q(*c[j] * s / vv), vv};
        value(e.name, "near_point", at, e.near_point, p);
      }
    } else if (const auto* l = std::get_if<linahan::Tolerances>(&tol_)) {
      const F eps = num::from_double<F>(l->very_close_distance);
      const Q eq = to_rational(eps);
      const Surd dist{Q(0), t, vv};
      value(e.name, "distance", at, e.distance, dist);
      const bool positive = compare(dist, eq) > 0;
      value(e.name, "short_distance", at, e.short_distance, positive ? Surd{Q(-eq), t, vv} : Surd::rational(Q(0)));
      if (const auto d = exact_distance_versus(e.pass, e.iteration, eps, true))
        decide(e.name, "moved", at, yes_no(e.moved), yes_no(d->first), d->second, FailureClass::decision_flip,
               scene_index(q.triangle), "|vel| t - eps > 0");
      if (num::sign(vv) != 0) {
        // pos + unit(vel) max(|vel| t - eps, 0) = pos + vel t - eps vel / |vel| (when positive)
        Surd p[3];
        const Q* c[3] = {&vel.x, &vel.y, &vel.z};
        const Q* o[3] = {&pos.x, &pos.y, &pos.z};
        for (int j = 0; j < 3; ++j)
          p[j] = positive ? Surd{Q(*o[j] + *c[j] * t), Q(-eq * *c[j] / vv), vv} : Surd::rational(*o[j]);
        value(e.name, "near_point", at, e.near_point, p);
      }
    } else {
      // monter and pseudo_distance: the whole legal move, pos + vel t, and its length.
      value(e.name, "distance", at, e.distance, Surd{Q(0), Q(abs(t)), vv});
      value(e.name, "near_point", at, e.near_point, Vec3<Q>(pos + vel * t));
    }
  }

  void on(const ev::TouchPoint<F>& e) {
    const StepLocation at = where(e);
    const ev::CollisionQuery<F>& q = query(e.pass, e.iteration);
    if (const auto* f = std::get_if<fauerby::Tolerances>(&tol_)) {
      // Moved: the contact pulled back by veryCloseDistance along unit(V) = unit(vel) (V is
      // vel scaled by nearestDistance - veryCloseDistance > 0; at = 0 the float divides 0/0).
      const ev::NearPoint<F>* np = previous<ev::NearPoint<F>>(e.pass, e.iteration);
      if (!np || !np->moved) return;
      const Vec3<Q> vel = to_q(q.velocity);
      const Q vv = length_squared(vel);
      const Q s = to_rational(np->distance) - to_rational(fauerby_very_close<F>(*f));
      if (num::sign(s) == 0 || num::sign(vv) == 0) return;  // 0/0 in float: no exact value
      const Vec3<Q> cp = to_q(e.contact_point);
      const Q vcd = to_rational(fauerby_very_close<F>(*f));
      Surd p[3];
      const Q* c[3] = {&vel.x, &vel.y, &vel.z};
      const Q* o[3] = {&cp.x, &cp.y, &cp.z};
      for (int j = 0; j < 3; ++j) p[j] = Surd{*o[j], Q(-vcd * *c[j] / vv), vv};
      value(e.name, "intersection_point", at, e.intersection_point, p);
    } else if (std::holds_alternative<linahan::Tolerances>(tol_)) {
      value(e.name, "touch_point", at, e.touch_point,
            Vec3<Q>(to_q(q.base_point) + to_q(q.velocity) * to_rational(q.time)));
    } else if (std::holds_alternative<pseudo_distance::Tolerances>(tol_)) {
      // The closest point of the hit triangle to the new position, exactly.
      const exact::ClosestPoint<Q> c = exact::closest_point(to_q(e.touch_point), triangle_q(q.triangle));
      value(e.name, "intersection_point", at, e.intersection_point, c.point);
    }
    // monter: both points are copies (the contact point and the moved centre).
  }

  void on(const ev::SlidingPlane<F>& e) {
    const ev::TouchPoint<F>* tp = previous<ev::TouchPoint<F>>(e.pass, e.iteration);
    if (!tp) return;
    // Every algorithm: unit(touch point - intersection point).
    const Vec3<Q> d = to_q(tp->touch_point) - to_q(tp->intersection_point);
    const Q dd = length_squared(d);
    if (num::sign(dd) == 0) return;  // a zero vector: the float normal is NaN (undefined)
    const Surd n[3] = {Surd{Q(0), Q(d.x / dd), dd}, Surd{Q(0), Q(d.y / dd), dd}, Surd{Q(0), Q(d.z / dd), dd}};
    value(e.name, "normal", where(e), e.normal, n);
    if (const auto* m = std::get_if<monter::Tolerances>(&tol_)) monter_remaining(e, *m);
  }

  /// Monter's stop test |vel - vel t| < min_remaining_velocity, from the query's vel and t.
  void monter_remaining(const ev::SlidingPlane<F>& e, const monter::Tolerances& m) {
    if (e.undefined) return;  // the pass stopped before the test
    const ev::CollisionQuery<F>& q = query(e.pass, e.iteration);
    const Q vv = length_squared(to_q(q.velocity));
    const Q one_minus_t = Q(1) - to_rational(q.time);
    const F threshold = num::from_double<F>(m.min_remaining_velocity);
    const Q th = to_rational(threshold);
    const bool exact = one_minus_t * one_minus_t * vv < th * th;
    const bool flt = stopped_with(e.pass, e.iteration, StopReason::remaining_too_small);
    const F len = round_surd<F>(Surd{Q(0), one_minus_t, vv});
    decide(e.name, "remaining_too_small", where(e), yes_no(flt), yes_no(exact), ulp_gap<F>(len, threshold),
           FailureClass::decision_flip, scene_index(q.triangle), "|vel - vel t| < min_remaining_velocity");
  }

  void on(const ev::ProjectedDestination<F>& e) {
    const StepLocation at = where(e);
    const ev::CollisionQuery<F>& q = query(e.pass, e.iteration);
    const ev::SlidingPlane<F>* sp = previous<ev::SlidingPlane<F>>(e.pass, e.iteration);
    const ev::TouchPoint<F>* tp = previous<ev::TouchPoint<F>>(e.pass, e.iteration);
    const ev::NearPoint<F>* np = previous<ev::NearPoint<F>>(e.pass, e.iteration);
    if (!sp || !tp || !np) return;
    const Vec3<Q> n = to_q(sp->normal);
    const Vec3<Q> dest = to_q(e.destination);
    if (const auto* f = std::get_if<fauerby::Tolerances>(&tol_)) {
      value(e.name, "destination", at, e.destination, Vec3<Q>(to_q(q.base_point) + to_q(q.velocity)));
      const Q sd = dot(n, Vec3<Q>(dest - to_q(sp->origin)));
      value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(sd));
      const Vec3<Q> nd = dest - n * sd;
      value(e.name, "new_destination", at, e.new_destination, nd);
      value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(nd - to_q(tp->intersection_point)));
      // length(newVelocityVector) < veryCloseDistance, from the float new velocity.
      const F vcd = fauerby_very_close<F>(*f);
      const Q nv2 = length_squared(to_q(e.new_velocity));
      const Q th = to_rational(vcd);
      decide(e.name, "velocity_too_small", at,
             yes_no(stopped_with(e.pass, e.iteration, StopReason::velocity_too_small)), yes_no(nv2 < th * th),
             ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), nv2}), vcd), FailureClass::decision_flip,
             scene_index(q.triangle), "|newVelocityVector| < veryCloseDistance");
    } else if (const auto* l = std::get_if<linahan::Tolerances>(&tol_)) {
      if (e.iteration == 0)
        value(e.name, "destination", at, e.destination, Vec3<Q>(to_q(q.base_point) + to_q(q.velocity)));
      const Q pd = dot(n, Vec3<Q>(dest - to_q(sp->origin)));
      value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(pd));
      const Q long_radius = Q(1) + to_rational(num::from_double<F>(l->very_close_distance));
      const Vec3<Q> nd = dest - n * Q(pd - long_radius);
      value(e.name, "new_destination", at, e.new_destination, nd);
      value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(nd - to_q(np->near_point)));
    } else if (const auto* p = std::get_if<pseudo_distance::Tolerances>(&tol_)) {
      const Vec3<Q> pos = to_q(np->near_point);
      const Vec3<Q> remaining = dest - pos;
      const Q into = dot(n, remaining);
      value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(into));
      const Q bias = to_rational(num::from_double<F>(p->normal_bias));
      Vec3<Q> slide = remaining - n * into + n * bias;
      if (e.iteration == 1) {
        const ev::TouchPoint<F>* first = nullptr;
        for (std::size_t k = 0; k < step_; ++k)
          if (const auto* t = std::get_if<ev::TouchPoint<F>>(&run_.events[k]); t && t->pass == e.pass && t->iteration == 0)
            first = t;
        if (first) {
          const Vec3<Q> line = to_q(tp->intersection_point) - to_q(first->intersection_point);
          const Q ll = dot(line, line);
          if (num::sign(ll) != 0) slide = slide - line * Q(dot(line, slide) / ll);
        }
      }
      value(e.name, "new_velocity", at, e.new_velocity, slide);
      value(e.name, "new_destination", at, e.new_destination, Vec3<Q>(pos + slide));
      const F min_movement = num::from_double<F>(p->min_movement);
      const Q s2 = length_squared(to_q(e.new_velocity));
      const Q th = to_rational(min_movement);
      decide(e.name, "nearly_stopped", at, yes_no(stopped_with(e.pass, e.iteration, StopReason::nearly_stopped)),
             yes_no(s2 < th * th), ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), s2}), min_movement),
             FailureClass::decision_flip, scene_index(q.triangle), "|slide| < min_movement");
    }
  }

  void on(const ev::Crease<F>& e) {
    const StepLocation at = where(e);
    const ev::NearPoint<F>* np = previous<ev::NearPoint<F>>(e.pass, e.iteration);
    const ev::ProjectedDestination<F>* pd = previous<ev::ProjectedDestination<F>>(e.pass, e.iteration - 1);
    const Vec3<Q> c = cross(to_q(e.first_normal), to_q(e.second_normal));
    const Q cc = length_squared(c);
    decide(e.name, "undefined", at, yes_no(e.undefined), yes_no(num::sign(cc) == 0), -1, FailureClass::decision_flip,
           std::nullopt, "first_normal x second_normal == 0");
    if (!np || !pd || num::sign(cc) == 0) return;
    const Surd crease[3] = {Surd{Q(0), Q(c.x / cc), cc}, Surd{Q(0), Q(c.y / cc), cc}, Surd{Q(0), Q(c.z / cc), cc}};
    value(e.name, "crease", at, e.crease, crease);
    const Vec3<Q> pos = to_q(np->near_point);
    const Q along = dot(Vec3<Q>(to_q(pd->new_destination) - pos), c);
    value(e.name, "signed_distance", at, e.signed_distance, Surd{Q(0), Q(along / cc), cc});
    const Vec3<Q> vel = c * Q(along / cc);  // unit(c) (d . unit(c)) = c (d . c) / |c|^2
    value(e.name, "new_velocity", at, e.new_velocity, vel);
    value(e.name, "new_destination", at, e.new_destination, Vec3<Q>(pos + vel));
  }

  void on(const ev::Bias<F>& e) {
    const StepLocation at = where(e);
    const auto* m = std::get_if<monter::Tolerances>(&tol_);
    const ev::CollisionQuery<F>& q = query(e.pass, e.iteration);
    const ev::NearPoint<F>* np = previous<ev::NearPoint<F>>(e.pass, e.iteration);
    const ev::SlidingPlane<F>* sp = previous<ev::SlidingPlane<F>>(e.pass, e.iteration);
    if (!m || !np || !sp) return;
    const Vec3<Q> n = to_q(sp->normal);
    value(e.name, "pushed_position", at, e.pushed_position,
          Vec3<Q>(to_q(np->near_point) + n * to_rational(num::from_double<F>(m->push_out_distance))));
    const Vec3<Q> remaining = to_q(q.velocity) * Q(Q(1) - to_rational(q.time));
    const Q reflection = dot(n, remaining);
    value(e.name, "reflection", at, e.reflection, Surd::rational(reflection));
    const Q extension = to_rational(num::from_double<F>(m->reflection_extension));
    value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(remaining - n * Q(reflection - extension)));
  }

  /// pseudo_distance's contact test at x: dist(x, triangle) <= 1 + contact_distance, as
  /// squared distances; returns (in contact, squared distance).
  std::pair<bool, Q> pseudo_contact(const Vec3<Q>& x, std::size_t tri, const Q& reach) {
    const Q d2 = exact::point_triangle_squared_distance(x, triangle_q(tri));
    return {d2 <= reach * reach, d2};
  }

  void on(const ev::StartCheck<F>& e) {
    const auto* p = std::get_if<pseudo_distance::Tolerances>(&tol_);
    if (!p) return;
    const StepLocation at = where(e);
    const F contact = num::from_double<F>(p->contact_distance);
    const Q reach = Q(1) + to_rational(contact);
    const Vec3<Q> x = to_q(e.position);
    // The nearest triangle, exactly: triangles in order of a lower bound of their distance
    // (the squared distance to their conservative box, in doubles, rounded down), stopping
    // when that bound exceeds the best exact distance so far; ties go to the lower index.
    const exact::Box point_box = exact::swept_box(e.position, Vec3<F>(F(0), F(0), F(0)), Vec3<F>(F(0), F(0), F(0)));
    std::vector<std::pair<double, std::size_t>> order;
    order.reserve(espace_.triangle_count());
    for (std::size_t i = 0; i < espace_.triangle_count(); ++i) {
      const exact::Box& b = filter_.boxes()[i];
      double d2 = 0;
      for (int j = 0; j < 3; ++j) {
        const double gap = std::max({0.0, b.lo[j] - point_box.hi[j], point_box.lo[j] - b.hi[j]});
        d2 += gap * gap;
      }
      order.emplace_back(d2 * (1 - 0x1p-40), i);  // a few roundings: 2^-40 relatively covers them
    }
    std::sort(order.begin(), order.end());
    std::optional<std::size_t> best_index;
    Q best_d2;
    for (const auto& [bound, i] : order) {
      if (best_index && Q(bound) > best_d2) break;
      const Q d2 = exact::point_triangle_squared_distance(x, triangle_q(i));
      if (!best_index || d2 < best_d2 || (d2 == best_d2 && i < *best_index)) best_d2 = d2, best_index = i;
    }
    if (!best_index) return;
    const std::size_t best = *best_index;
    const Q float_d2 = exact::point_triangle_squared_distance(x, triangle_q(e.triangle));
    value(e.name, "pseudo_distance", at, e.pseudo_distance, Surd{Q(-reach), Q(1), best_d2});
    const F least = round_surd<F>(Surd{Q(0), Q(1), best_d2});
    decide(e.name, "in_collision", at, yes_no(e.in_collision), yes_no(best_d2 <= reach * reach),
           ulp_gap<F>(least, round_to_nearest<F>(reach)), FailureClass::decision_flip, scene_index(best),
           "least distance <= 1 + contact_distance");
    decide(e.name, "triangle", at, std::to_string(scene_index(e.triangle)), std::to_string(scene_index(best)),
           e.triangle == best ? -1 : ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), float_d2}), least),
           FailureClass::decision_flip, scene_index(e.triangle), "the nearest triangle");
  }

  void on(const ev::RootSearch<F>& e) {
    const auto* p = std::get_if<pseudo_distance::Tolerances>(&tol_);
    if (!p) return;
    const StepLocation at = where(e);
    const ev::CollisionQuery<F>& q = query(e.pass, e.iteration);
    const Q reach = Q(1) + to_rational(num::from_double<F>(p->contact_distance));
    const F reach_f = round_to_nearest<F>(reach);
    const Vec3<Q> pos = to_q(q.base_point), move = to_q(q.velocity);
    // The free end is where the sphere is moved: a flip there is a failure. The contact end
    // only bounds the bracket (bisection drives it to within an ulp of the threshold, where
    // flips are common and change nothing): a divergence, not a failure.
    auto test = [&](F t, bool float_contact, const char* what) {
      const auto [contact, d2] = pseudo_contact(Vec3<Q>(pos + move * to_rational(t)), e.triangle, reach);
      const std::int64_t margin = ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), d2}), reach_f);
      if (float_contact && t != F(0))
        note(e.name, what, at, yes_no(float_contact), yes_no(contact), margin);
      else
        decide(e.name, what, at, yes_no(float_contact), yes_no(contact), margin, FailureClass::decision_flip,
               scene_index(e.triangle), "dist(pos + move t, triangle) <= 1 + contact_distance");
    };
    if (e.t_high == F(0)) {
      test(F(0), true, "contact_at_start");
      return;
    }
    test(e.t_low, false, "contact_at_t_low");
    test(e.t_high, true, "contact_at_t_high");
  }

  void on(const ev::Stop<F>&) {}

  const AlgorithmTolerances& tol_;
  const TracedRun<F>& run_;
  std::span<const std::size_t> original_index_;
  IndexedMesh<F> espace_;
  exact::BoxFilter filter_;
  std::vector<std::optional<Triangle<Q>>> triangles_;
  std::map<std::pair<int, int>, std::size_t> queries_;
  std::vector<std::size_t> next_query_;  ///< for each event, the collision query it belongs to
  std::map<std::size_t, ExactContact> exact_by_event_;
  LocalErrorOptions options_;
  const trace::fauerby::PlaneInterval<F>* last_plane_ = nullptr;
  std::map<int, ev::Stop<F>> stops_;
  std::map<std::pair<int, int>, ExactContact> exact_time_;
  std::optional<std::pair<Feature, int>> float_feature_;
  std::size_t step_ = 0;
  LocalError out_;
};

}  // namespace

template <IeeeBinary F>
LocalError check_local_error(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
                             const TracedRun<F>& run, std::span<const std::size_t> original_index,
                             const LocalErrorOptions& options) {
  return Checker<F>(tol, in, mesh, run, original_index, options).check();
}

template LocalError check_local_error<float>(const AlgorithmTolerances&, const SlideInput<float>&,
                                             const IndexedMesh<float>&, const TracedRun<float>&,
                                             std::span<const std::size_t>, const LocalErrorOptions&);
template LocalError check_local_error<double>(const AlgorithmTolerances&, const SlideInput<double>&,
                                              const IndexedMesh<double>&, const TracedRun<double>&,
                                              std::span<const std::size_t>, const LocalErrorOptions&);

}  // namespace slidecheck::verify
