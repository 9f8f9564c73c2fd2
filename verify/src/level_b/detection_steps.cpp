// Level B on a collision query and Fauerby's detection sub-steps (detection_steps.hpp).
#include "level_b/detection_steps.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <variant>

namespace slidecheck::verify::level_b {

using detail::round_time_times_sqrt;
using detail::time_squared;
using detail::time_surd;

template <IeeeBinary F>
ExactContact DetectionSteps<F>::exact_contact(const SweptSphere<Q>& s, const Vec3<F>& base, const Vec3<F>& vel) {
  ExactContact out;
  const exact::Box box = exact::swept_box(base, vel, Vec3<F>(F(1), F(1), F(1)));
  const exact::SweepOptions options{};  // back faces culled as Fauerby; interval filter on
  for (std::size_t i = 0; i < cx_.espace().triangle_count(); ++i) {
    if (!cx_.filter().may_hit(i, box)) continue;
    DetectionResult<Q> r = exact::sweep_sphere_triangle_filtered(s, cx_.triangle_q(i), options, i);
    if (!r.hit) continue;
    if (!out.hit.hit || compare(r.time, out.hit.time) < 0) out.hit = std::move(r);
    if (out.hit.time.is_linear() && num::sign(out.hit.time.c) == 0) break;
  }
  out.start_contact = out.hit.hit && out.hit.time.is_linear() && num::sign(out.hit.time.c) == 0;
  return out;
}

template <IeeeBinary F>
std::int64_t DetectionSteps<F>::hit_margin(const SweptSphere<Q>& s, std::size_t tri,
                                           const DetectionResult<Q>* exact_hit) {
  const Q d2 = segment_triangle_squared_distance(s.center, Vec3<Q>(s.center + s.velocity), cx_.triangle_q(tri));
  std::int64_t m = ulp_gap<F>(round_to_nearest<F>(d2), F(1));
  if (exact_hit) m = std::min(m, ulp_gap<F>(round_surd<F>(time_surd(exact_hit->time)), F(1)));
  return m;
}

template <IeeeBinary F>
const ExactContact& DetectionSteps<F>::exact_for(std::size_t k) {
  auto it = exact_by_event_.find(k);
  if (it == exact_by_event_.end()) {
    const auto& q = std::get<ev::CollisionQuery<F>>(cx_.run().events[k]);
    const SweptSphere<Q> s{to_q(q.base_point), to_q(q.velocity), Q(1)};
    it = exact_by_event_.emplace(k, exact_contact(s, q.base_point, q.velocity)).first;
  }
  return it->second;
}

template <IeeeBinary F>
void DetectionSteps<F>::check_detection(const ev::CollisionQuery<F>& q) {
  const StepLocation at = cx_.where(q);
  const SweptSphere<Q> s{to_q(q.base_point), to_q(q.velocity), Q(1)};
  const ExactContact& e = exact_for(cx_.step());
  exact_time_[{q.pass, q.iteration}] = e;
  const std::string fo = q.hit ? "hit" : "miss";
  if (e.start_contact) {
    // Already within r at t = 0: Fauerby's getLowestRoot wants a root > 0, a sphere at
    // exactly r moving parallel is not in contact, an embedded one gets only exit roots.
    // By design, not by rounding: recorded, not compared (level A sees the overlap).
    cx_.decide("collision_query", "hit", at, fo, fo, -1, FailureClass::missed_hit, std::nullopt,
               "exact contact at t = 0 (start in contact): not compared");
    cx_.out().decisions.back().exact_outcome = "start_contact";
    return;
  }
  const std::string eo = e.hit.hit ? "hit" : "miss";
  std::int64_t margin = -1;
  if (e.hit.hit)
    margin = hit_margin(s, e.hit.triangle, &e.hit);
  else if (q.hit)
    margin = hit_margin(s, q.triangle, nullptr);
  const std::size_t deciding = e.hit.hit ? e.hit.triangle : q.triangle;
  cx_.decide("collision_query", "hit", at, fo, eo, margin,
             q.hit ? FailureClass::spurious_hit : FailureClass::missed_hit,
             (q.hit || e.hit.hit) ? std::optional<std::size_t>(cx_.scene_index(deciding)) : std::nullopt);
  if (!q.hit || !e.hit.hit) return;

  cx_.value("collision_query", "time", at, q.time, time_surd(e.hit.time));
  if (q.triangle != e.hit.triangle) {
    // The margin: the float triangle's own exact time against the exact first contact's.
    std::int64_t m = -1;
    const DetectionResult<Q> own = exact::sweep_sphere_triangle_filtered(s, cx_.triangle_q(q.triangle), {}, q.triangle);
    if (own.hit && compare(own.time, e.hit.time) == 0) {
      // An exact tie: both triangles are first contacts at the same time (a seam or a
      // crease touched on their shared edge or vertex). The exact rule's lowest index is a
      // convention, and the responses derive the plane from the contact point, not the
      // triangle: the float run's choice is as good, so it agrees (margin 0: a tie).
      cx_.decide("collision_query", "triangle", at, std::to_string(cx_.scene_index(q.triangle)),
                 std::to_string(cx_.scene_index(e.hit.triangle)) + " (tied exactly with " +
                     std::to_string(cx_.scene_index(q.triangle)) + ")",
                 0, FailureClass::wrong_triangle, cx_.scene_index(q.triangle), {}, true);
      return;
    }
    if (own.hit) m = ulp_gap<F>(round_surd<F>(time_surd(own.time)), round_surd<F>(time_surd(e.hit.time)));
    cx_.decide("collision_query", "triangle", at, std::to_string(cx_.scene_index(q.triangle)),
               std::to_string(cx_.scene_index(e.hit.triangle)), m, FailureClass::wrong_triangle,
               cx_.scene_index(q.triangle));
    return;
  }
  cx_.decide("collision_query", "triangle", at, std::to_string(cx_.scene_index(q.triangle)),
             std::to_string(cx_.scene_index(e.hit.triangle)), -1, FailureClass::wrong_triangle,
             cx_.scene_index(q.triangle));
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
    const QuadraticRoot<Q> own = exact::detail::entry_root(s, cx_.triangle_q(q.triangle), ff, fi);
    if (num::sign(own.a) != 0 && num::sign(own.discriminant()) >= 0) {
      m = ulp_gap<F>(round_surd<F>(time_surd(own)), round_surd<F>(time_surd(e.hit.time)));
      agrees = compare(own, e.hit.time) == 0;
    }
  }
  cx_.decide("collision_query", "feature", at, ffo, efo, m, FailureClass::wrong_feature, cx_.scene_index(q.triangle),
             agrees && ffo != efo ? "a tie: both features hold the contact point" : "", agrees);
}

template <IeeeBinary F>
std::optional<std::pair<bool, std::int64_t>> DetectionSteps<F>::exact_distance_versus(int pass, int iteration,
                                                                                      F threshold, bool strict) {
  const auto it = exact_time_.find({pass, iteration});
  if (it == exact_time_.end() || !it->second.hit.hit || it->second.start_contact) return std::nullopt;
  const ev::CollisionQuery<F>& q = cx_.query(pass, iteration);
  const Q vv = length_squared(to_q(q.velocity));
  const Surd t2 = time_squared(it->second.hit.time);
  const Q th = to_rational(threshold);
  const int c = compare(Surd{Q(t2.a * vv), Q(t2.b * vv), t2.q}, Q(th * th));  // (t* |v|)^2 vs threshold^2
  const bool outcome = strict ? c > 0 : c >= 0;
  const F d = round_time_times_sqrt<F>(it->second.hit.time, vv);
  return std::pair{outcome, ulp_gap<F>(d, threshold)};
}

template <IeeeBinary F>
const ev::CollisionQuery<F>* DetectionSteps<F>::owning_query(std::size_t triangle) {
  const std::size_t k = cx_.next_query();
  if (k >= cx_.run().events.size()) return nullptr;
  const auto* q = &std::get<ev::CollisionQuery<F>>(cx_.run().events[k]);
  if (cx_.options().every_triangle || (q->hit && q->triangle == triangle)) return q;
  const ExactContact& e = exact_for(k);
  return e.hit.hit && e.hit.triangle == triangle ? q : nullptr;
}

template <IeeeBinary F>
void DetectionSteps<F>::on(const trace::fauerby::PlaneInterval<F>& e) {
  using D = trace::fauerby::PlaneDecision;
  last_plane_ = &e;
  const ev::CollisionQuery<F>* q = owning_query(e.triangle);
  if (!q) return;
  const StepLocation at = cx_.where_step(q->pass, q->iteration);
  const Triangle<Q>& tri = cx_.triangle_q(e.triangle);
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
      cx_.value(e.name, "t0", at, e.t0, clamp ? clamp01(lo) : lo);
      cx_.value(e.name, "t1", at, e.t1, clamp ? clamp01(hi) : hi);
    }
  }
  cx_.note(e.name, "plane", at, std::string(trace::fauerby::to_string(e.decision)),
           std::string(trace::fauerby::to_string(exact_d)), margin);
  if (num::sign(cc) == 0 || zero_velocity) return;
  const Surd n[3] = {Surd{Q(0), Q(c.x / cc), cc}, Surd{Q(0), Q(c.y / cc), cc}, Surd{Q(0), Q(c.z / cc), cc}};
  cx_.value(e.name, "normal", at, e.normal, n);
  cx_.value(e.name, "plane_constant", at, e.plane_constant, Surd{Q(0), Q(-dot(c, tri.p0) / cc), cc});
  if (e.decision == D::culled_back_face) return;
  cx_.value(e.name, "signed_distance", at, e.signed_distance, Surd{Q(0), Q(s / cc), cc});
  cx_.value(e.name, "normal_dot_velocity", at, e.normal_dot_velocity, Surd{Q(0), Q(k / cc), cc});
}

template <IeeeBinary F>
void DetectionSteps<F>::on(const trace::fauerby::InsideTest<F>& e) {
  const ev::CollisionQuery<F>* q = owning_query(e.triangle);
  if (!q) return;
  const StepLocation at = cx_.where_step(q->pass, q->iteration);
  const Triangle<Q>& tri = cx_.triangle_q(e.triangle);
  // The plane intersection point (basePoint - normal) + t0 velocity, from the plane step's
  // float normal and t0.
  if (last_plane_ && last_plane_->triangle == e.triangle)
    cx_.value(
        e.name, "point", at, e.point,
        Vec3<Q>(to_q(q->base_point) - to_q(last_plane_->normal) + to_q(q->velocity) * to_rational(last_plane_->t0)));
  // Appendix C in Rational, from the float point.
  const Vec3<Q> e10 = tri.p1 - tri.p0, e20 = tri.p2 - tri.p0, vp = to_q(e.point) - tri.p0;
  const Q a = dot(e10, e10), b = dot(e10, e20), cq = dot(e20, e20);
  const Q d = dot(vp, e10), ee = dot(vp, e20);
  const Q x = d * cq - ee * b, y = ee * a - d * b, z = x + y - (a * cq - b * b);
  cx_.value(e.name, "x", at, e.x, Surd::rational(x));
  cx_.value(e.name, "y", at, e.y, Surd::rational(y));
  cx_.value(e.name, "z", at, e.z, Surd::rational(z));
  // The sign-bit test with exact signs: an exact zero is +0 (not negative).
  const bool inside = num::sign(z) < 0 && num::sign(x) >= 0 && num::sign(y) >= 0;
  cx_.note(e.name, "inside", at, cx_.yes_no(e.inside), cx_.yes_no(inside), -1);
}

template <IeeeBinary F>
std::pair<std::optional<Surd>, std::int64_t> DetectionSteps<F>::lowest_root(F a_f, F b_f, F c_f, F max_f) {
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

template <IeeeBinary F>
void DetectionSteps<F>::on(const trace::fauerby::VertexRoot<F>& e) {
  const ev::CollisionQuery<F>* q = owning_query(e.triangle);
  if (!q) return;
  const StepLocation at = cx_.where_step(q->pass, q->iteration);
  const Vec3<Q> vel = to_q(q->velocity), base = to_q(q->base_point);
  const Vec3<Q>& p = cx_.triangle_q(e.triangle).vertex(e.vertex);
  cx_.value(e.name, "a", at, e.a, Surd::rational(length_squared(vel)));
  cx_.value(e.name, "b", at, e.b, Surd::rational(Q(2) * dot(vel, Vec3<Q>(base - p))));
  cx_.value(e.name, "c", at, e.c, Surd::rational(Q(length_squared(Vec3<Q>(p - base)) - 1)));
  const auto [root, margin] = lowest_root(e.a, e.b, e.c, e.max_root);
  cx_.note(e.name, "found", at, cx_.yes_no(e.found), cx_.yes_no(root.has_value()), margin);
  if (e.found && root) cx_.value(e.name, "root", at, e.root, *root);
}

template <IeeeBinary F>
void DetectionSteps<F>::on(const trace::fauerby::EdgeRoot<F>& e) {
  const ev::CollisionQuery<F>* q = owning_query(e.triangle);
  if (!q) return;
  const StepLocation at = cx_.where_step(q->pass, q->iteration);
  const Vec3<Q> vel = to_q(q->velocity), base = to_q(q->base_point);
  const Triangle<Q>& tri = cx_.triangle_q(e.triangle);
  const Vec3<Q> edge = tri.vertex((e.edge + 1) % 3) - tri.vertex(e.edge);
  const Vec3<Q> btv = tri.vertex(e.edge) - base;
  const Q ees = length_squared(edge), vv = length_squared(vel), edv = dot(edge, vel), edb = dot(edge, btv);
  cx_.value(e.name, "a", at, e.a, Surd::rational(Q(ees * -vv + edv * edv)));
  cx_.value(e.name, "b", at, e.b, Surd::rational(Q(ees * (Q(2) * dot(vel, btv)) - Q(2) * edv * edb)));
  cx_.value(e.name, "c", at, e.c, Surd::rational(Q(ees * (Q(1) - length_squared(btv)) + edb * edb)));
  const auto [root, margin] = lowest_root(e.a, e.b, e.c, e.max_root);
  cx_.note(e.name, "found", at, cx_.yes_no(e.found), cx_.yes_no(root.has_value()), margin);
  if (!e.found || num::sign(ees) == 0) return;
  if (root) cx_.value(e.name, "root", at, e.root, *root);
  // f = (edge . velocity root - edge . baseToVertex) / |edge|^2 at the float root.
  const Q f = (edv * to_rational(e.root) - edb) / ees;
  cx_.value(e.name, "f", at, e.f, Surd::rational(f));
  const F f_rounded = round_to_nearest<F>(f);
  cx_.note(e.name, "within_segment", at, cx_.yes_no(e.within_segment), cx_.yes_no(num::sign(f) >= 0 && f <= Q(1)),
           std::min(ulp_gap<F>(f_rounded, F(0)), ulp_gap<F>(f_rounded, F(1))));
}

template <IeeeBinary F>
void DetectionSteps<F>::on(const trace::fauerby::NearestHit<F>& h) {
  if (h.replaced) float_feature_ = std::pair{h.feature, h.feature_index};
  const ev::CollisionQuery<F>* q = owning_query(h.triangle);
  if (!q) return;
  // Fauerby's compared quantity t |velocity|, from the float t.
  cx_.value(h.name, "distance", cx_.where_step(q->pass, q->iteration), h.distance,
            Surd{Q(0), to_rational(h.time), length_squared(to_q(q->velocity))});
}

template <IeeeBinary F>
void DetectionSteps<F>::on(const ev::CollisionQuery<F>& q) {
  // Only for Fauerby's detection: others (robust's skin-inflated, two-sided sphere with its own
  // start-contact rule; pseudo_distance's root search) take other decisions (docs/level-b.md).
  if (compare_queries_) check_detection(q);
  float_feature_.reset();
}

template class DetectionSteps<float>;
template class DetectionSteps<double>;

}  // namespace slidecheck::verify::level_b
