#pragma once
/// The exact-capable swept-sphere / triangle detection: ground truth for every time of
/// impact, written once for every number type and exact in Rational and Real.
///
/// Definition. The sphere of radius r has centre C(t) = center + t velocity, t in [0, 1]. Its
/// time of impact is the smallest t in [0, 1] with dist(C(t), triangle) <= r (touching counts).
/// Since the distance from a linearly moving point to a convex set is convex in t, the
/// contact times form one interval and this minimum is well defined. A sphere already within
/// r at t = 0 has its impact at 0, reported at the closest point of the triangle (of the
/// features within r, the one that holds the closest point).
///
/// Method (Fauerby 2003, chapter 3, rewritten without square roots). The set of centres
/// within r of the triangle is the union of a slab prism over the face, three cylinders
/// around the edges and three balls at the vertices. The entry time into the union is the
/// earliest of
///   - the face: the slab entry time, if the centre's projection then lies in the triangle
///     (if not, the prism is entered later through its side, which lies in an edge cylinder);
///   - each edge: the entry into the infinite cylinder, if the closest point of the line then
///     lies on the segment (if not, the finite cylinder is entered through an end disc, which
///     lies in a vertex ball);
///   - each vertex: the entry into its ball.
/// With the unnormalised normal n = (p1 - p0) x (p2 - p0), N = n . n, s(t) = n . (C(t) - p0),
/// the slab is s(t)^2 <= r^2 N: no square root. Every decision is the sign of a polynomial in
/// the inputs (or of such a polynomial at a root, decided by QuadraticRoot's sign analysis).
///
/// Deviations from Fauerby's checkTriangle (detection/fauerby.hpp), all deliberate:
/// - unnormalised normal, squared slab test, times kept as QuadraticRoot;
/// - touching counts: a sphere moving parallel to a face at exactly distance r is in contact
///   at t = 0 (Fauerby: no collision);
/// - an embedded sphere is tested against the face too (Fauerby skips the inside test);
/// - a root is a candidate only if it is the entry (the lower root, with the sphere outside
///   at t = 0); contact at t = 0 counts (Fauerby's getLowestRoot wants a root > 0 and may
///   return the exit root);
/// - the closed inside test `every g_i >= 0` instead of the sign-bit trick;
/// - degenerate triangles are not culled: their edges and vertices are still swept;
/// - back-face culling is an option (`cull_back_faces`, default on as in Fauerby; it culls
///   when n . v > 0, the same test as isFrontFacingTo);
/// - ties between features at the same time t > 0 are broken deterministically: vertex
///   before edge before face, lower index first. At such a time the distance is exactly r,
///   the closest point of the triangle is unique, and every tied feature holds it: the rule
///   names the smallest feature containing the contact point. At t = 0 the closest point
///   decides (the same rule on ties).
///
/// Parts: the start check's exact closest point (closest_feature.hpp), the sign tests and root
/// comparisons (sweep_decisions.hpp), and the faster run for exact types with the same result
/// (swept_sphere_triangle_filtered.hpp).

#include <slidecheck/reference/detection/closest_feature.hpp>
#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/reference/detection/sweep_decisions.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/trace/trace.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace slidecheck::exact {

/// Modes of the exact sweep (not tolerances: it has none).
struct SweepOptions {
  /// Skip triangles whose unnormalised normal points along the velocity (n . v > 0), as
  /// Fauerby's isFrontFacingTo does. Off: both sides collide.
  bool cull_back_faces = true;
  /// For exact types, sweep_sphere_triangle_filtered and the mesh level first run the sweep
  /// in double intervals and redo it in T only if some decision was uncertain. The results
  /// are identical (tests/reference/detection/test_detection_properties.cpp); off: always T.
  bool interval_filter = true;
  /// For rational T, sweep_sphere_triangle_filtered and the mesh level take the exact
  /// decisions in integers (inputs scaled by the lcm of their denominators), where the
  /// interval run could not. Off: in T.
  bool scaled_integers = true;
  /// The edges (bit i: from vertex i to vertex i + 1) whose cylinder of radius r the path is
  /// known to meet only tangentially, because it lies in a plane tangent to that cylinder (robust's
  /// exact pass knows such planes: SlidePassSteps::tangent_edges_of, response/robust/pass.hpp).
  /// The distance to the edge's line then never falls below r, so the edge's quadratic has a
  /// discriminant of exactly 0 wherever its leading coefficient is not 0: it is taken as 0, not
  /// compared (for a lazy exact type an exact tie, which it can prove only exactly), and the
  /// double root is taken as the root of 2a t + b. Every other decision is taken as without the
  /// bit. The caller's duty: a bit set for an edge that is not tangent gives a wrong contact.
  unsigned tangent_edges = 0;
  /// The path is known to lie in the plane parallel to the triangle's face at distance exactly r
  /// (robust's exact pass knows such planes too: SlidePassSteps::on_face_plane_of). Then the face
  /// is parallel to the move at distance r (k = 0, c = 0: parallel_inside), every edge is tangent
  /// as above (it lies in the face's plane: its line is at exactly r from the path's unless
  /// parallel to it), and a start whose closest feature is the face is at exactly r (a contact).
  /// None of these is compared; the caller's duty is as above.
  bool on_face_plane = false;
};

namespace detail {

/// The earliest contact offered so far: its time, feature and index.
template <Number T>
struct Best {
  bool found = false;
  QuadraticRoot<T> time;
  [[no_unique_address]] RootValue<T> value{};  ///< root_value(time)
  Feature feature = Feature::none;
  int index = -1;

  /// Takes (t, f, i) if it is strictly earlier: ties keep the earlier-offered feature.
  bool offer(const QuadraticRoot<T>& t, Feature f, int i) { return offer(t, root_value(t), f, i); }
  /// The same with t's root_value.
  bool offer(const QuadraticRoot<T>& t, const RootValue<T>& x, Feature f, int i) {
    if (found && compare_valued(t, x, time, value) >= 0) return false;
    found = true;
    time = t;
    value = x;
    feature = f;
    index = i;
    return true;
  }
  /// Nothing can be earlier than a contact at t = 0, and later offers lose ties.
  bool at_start() const { return found && time.is_linear() && detail::sign_zero(time.c); }
};

/// For a > 0, c > 0, b < 0 and b^2 - 4ac >= 0 (so both roots are positive): is the lower
/// root <= 1? P(1) = a + b + c <= 0 puts 1 between or on the roots; otherwise both roots lie
/// on the same side of 1, the side of the vertex -b / 2a.
template <Number T>
bool lower_root_at_most_one(const T& a, const T& b, const T& c) {
  if (detail::sign_not_positive(a + b + c)) return true;
  return detail::sign_negative(-b - T(2) * a);
}

/// Sets the hit, the time and the feature, and the values derived from the time where T
/// represents them: for types with a square root always, for the others at a rational
/// (linear) time, and the contact point of a vertex always.
/// `value`: root_value(time) when the caller has it (evaluate gives -c / b for a linear root).
template <Number T>
void fill_result(DetectionResult<T>& out, const QuadraticRoot<T>& time, Feature feature, int index,
                 const SweptSphere<T>& sphere, const Triangle<T>& tri, const RootValue<T>* value = nullptr) {
  out.hit = true;
  out.time = time;
  out.feature = feature;
  out.feature_index = index;
  const Vec3<T>& p_i = tri.vertex(index);
  bool have_t = false;
  T t{};
  if constexpr (evaluates_once_v<T>) {
    if (value) t = *value, have_t = true;  // evaluate(time), which is -c / b for a linear root
  }
  if (!have_t && time.is_linear()) {
    t = -time.c / time.b;
    have_t = true;
  }
  if constexpr (num::has_sqrt_v<T>) {
    if (!have_t) {
      t = evaluate(time);
      have_t = true;
    }
  }
  if (!have_t) {
    if (feature == Feature::vertex) out.contact_point = p_i;
    return;
  }
  out.time_value = t;
  const Vec3<T> c_t = sphere.center + t * sphere.velocity;
  Vec3<T> contact;
  if (feature == Feature::vertex) {
    contact = p_i;
  } else if (feature == Feature::edge) {
    const Vec3<T> e = tri.vertex((index + 1) % 3) - p_i;
    contact = p_i + e * (dot(e, c_t - p_i) / dot(e, e));
  } else {
    const Vec3<T> n = tri.normal_unnormalized();
    contact = c_t - n * (dot(n, c_t - tri.p0) / dot(n, n));
  }
  out.contact_point = contact;
  out.normal = c_t - contact;
}

/// The contact quadratic of the line through an edge e, for a centre w + t v relative to the
/// edge's first vertex: |e x (w + t v)|^2 = r^2 |e|^2. Its coefficients go through cross products:
/// |e|^2 |w|^2 - (e . w)^2 = |e x w|^2 and |e|^2 (v . w) - (e . v)(e . w) = (e x v) . (e x w)
/// (Lagrange's identity), the same values for exact types. Rounded, the difference form cancels
/// two terms of size |e|^2 |w|^2, so an edge contact erred by u |w|^2 (quadratic in the distance
/// to the edge's vertex: 1.8 u M^2 in robust's double search, and a skin term u M^2 that put
/// spheres hundreds of radii off huge triangles); the cross products err by u |w| d.
template <Number T>
struct EdgeQuadratic {
  T a, b, c;
};
template <Number T>
EdgeQuadratic<T> edge_quadratic(const Vec3<T>& e, const Vec3<T>& v, const Vec3<T>& w, const T& r2) {
  const Vec3<T> exv = cross(e, v);
  const Vec3<T> exw = cross(e, w);
  return {dot(exv, exv), T(T(2) * dot(exv, exw)), T(dot(exw, exw) - r2 * dot(e, e))};
}

/// The entry root of a feature's contact quadratic, the same coefficients as the sweep's.
template <Number T>
QuadraticRoot<T> entry_root(const SweptSphere<T>& sphere, const Triangle<T>& tri, Feature feature, int index) {
  const Vec3<T>& v = sphere.velocity;
  const T r2 = sphere.radius * sphere.radius;
  const Vec3<T> w = sphere.center - tri.vertex(feature == Feature::face ? 0 : index);
  if (feature == Feature::vertex) {
    return QuadraticRoot<T>::quadratic(dot(v, v), T(2) * dot(v, w), dot(w, w) - r2, RootKind::lower);
  }
  if (feature == Feature::edge) {
    const EdgeQuadratic<T> q = edge_quadratic(Vec3<T>(tri.vertex((index + 1) % 3) - tri.vertex(index)), v, w, r2);
    return QuadraticRoot<T>::quadratic(q.a, q.b, q.c, RootKind::lower);
  }
  const Vec3<T> n = tri.normal_unnormalized();
  const T k = dot(n, v), s0 = dot(n, w);
  return QuadraticRoot<T>::quadratic(k * k, T(2) * s0 * k, s0 * s0 - r2 * dot(n, n), RootKind::lower);
}

}  // namespace detail

/// The first contact of `sphere` with `tri` in t in [0, 1] (see the file comment). `index`
/// is recorded in the result and the trace.
template <Number T, class Tracer = NullTracer>
DetectionResult<T> sweep_sphere_triangle(const SweptSphere<T>& sphere, const Triangle<T>& tri,
                                         const SweepOptions& options = {}, std::size_t index = 0,
                                         Tracer&& tracer = {}) {
  DetectionResult<T> out;
  out.triangle = index;
  const Vec3<T>& v = sphere.velocity;
  const Vec3<T>* p[3] = {&tri.p0, &tri.p1, &tri.p2};
  const Vec3<T> n = cross(tri.p1 - tri.p0, tri.p2 - tri.p0);
  const T k = dot(n, v);
  const T r2 = sphere.radius * sphere.radius;

  [[maybe_unused]] EventSlot<Tracer, trace::exact::PlaneInterval<T>> plane_event;
  if constexpr (tracing_enabled<Tracer>) {
    plane_event.triangle = index;
    plane_event.normal = n;
    plane_event.k = k;
  }
  if (options.cull_back_faces && detail::sign_positive(k)) {
    if constexpr (tracing_enabled<Tracer>) {
      plane_event.decision = trace::exact::PlaneDecision::culled_back_face;
      tracer(plane_event);
    }
    return out;
  }

  // t = 0: already within r? Then the impact is at 0 and the closest point is the contact
  // (several features may be within r; the closest one is reported).
  const detail::ClosestFeature<T> start = detail::closest_feature(sphere.center, tri);
  const bool start_contact = (options.on_face_plane && start.feature == Feature::face) ||
                             detail::sign_not_positive(T(start.num - r2 * start.den));
  if constexpr (tracing_enabled<Tracer>)
    tracer(trace::exact::StartContact<T>{index, T(start.num / start.den), start.feature, start.index, start_contact});
  if (start_contact) {
    detail::fill_result(out, QuadraticRoot<T>::value(T(0)), start.feature, start.index, sphere, tri);
    return out;
  }

  // From here the sphere is clear of the triangle at t = 0 (in exact arithmetic the c <= 0
  // branches below are unreachable; rounded types may still take them).
  detail::Best<T> best;
  const T vv = dot(v, v);
  Vec3<T> w[3];  // centre - p_i
  for (int i = 0; i < 3; ++i) w[i] = sphere.center - *p[i];

  // Vertices: |w + t v|^2 = r^2.
  for (int i = 0; i < 3 && !best.at_start(); ++i) {
    const T b = T(2) * dot(v, w[i]);
    const T c = dot(w[i], w[i]) - r2;
    trace::exact::RootDecision decision;
    QuadraticRoot<T> root = QuadraticRoot<T>::value(T(0));
    bool double_root = false;  // the discriminant is exactly 0 (exact types)
    if (detail::sign_not_positive(c)) {
      decision = trace::exact::RootDecision::in_contact_at_start;
    } else if (detail::sign_zero(vv) || detail::discriminant_negative(vv, b, c, double_root)) {
      decision = trace::exact::RootDecision::no_root;
    } else if (detail::sign_not_negative(b)) {
      decision = trace::exact::RootDecision::moving_away;
    } else if (!detail::lower_root_at_most_one(vv, b, c)) {
      decision = trace::exact::RootDecision::after_end;
    } else {
      decision = trace::exact::RootDecision::candidate;
      root = double_root ? QuadraticRoot<T>::linear(T(2) * vv, b) : QuadraticRoot<T>::quadratic(vv, b, c, RootKind::lower);
    }
    const bool candidate = decision == trace::exact::RootDecision::in_contact_at_start ||
                           decision == trace::exact::RootDecision::candidate;
    const bool replaced = candidate && best.offer(root, Feature::vertex, i);
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::exact::VertexRoot<T>{index, i, vv, b, c, root, decision, replaced});
  }

  // Edges: |e x (w + t v)|^2 = r^2 |e|^2, and 0 <= e . (w + t v) <= |e|^2.
  for (int i = 0; i < 3 && !best.at_start(); ++i) {
    const Vec3<T> e = *p[(i + 1) % 3] - *p[i];
    const T ee = dot(e, e);
    if (detail::sign_zero(ee)) continue;  // a point: its vertex ball covers it
    const T ev = dot(e, v);
    const T ew = dot(e, w[i]);
    const auto [a, b, c] = detail::edge_quadratic(e, v, w[i], r2);
    bool double_root = options.on_face_plane || (options.tangent_edges >> i & 1u) != 0;  // the discriminant is 0
    const bool tangent = double_root;                               // known so, not compared
    trace::exact::RootDecision decision;
    QuadraticRoot<T> root = QuadraticRoot<T>::value(T(0));
    detail::RootValue<T> x{};  // root_value(root) where root may be offered
    if (detail::sign_not_positive(c)) {
      // Within r of the line at t = 0: in contact iff the closest point is on the segment.
      x = detail::root_value(root);
      decision = (detail::sign_not_negative(ew) && detail::sign_not_positive(ew - ee)) ? trace::exact::RootDecision::in_contact_at_start
                                                                 : trace::exact::RootDecision::outside_segment;
    } else if (detail::sign_zero(a) || (!tangent && detail::discriminant_negative(a, b, c, double_root))) {
      decision = trace::exact::RootDecision::no_root;
    } else if (detail::sign_not_negative(b)) {
      decision = trace::exact::RootDecision::moving_away;
    } else if (!detail::lower_root_at_most_one(a, b, c)) {
      decision = trace::exact::RootDecision::after_end;
    } else {
      root = double_root ? QuadraticRoot<T>::linear(T(2) * a, b) : QuadraticRoot<T>::quadratic(a, b, c, RootKind::lower);
      x = detail::root_value(root);
      const bool on_segment = detail::sign_at_valued_root(ew, ev, root, x) >= 0 &&
                              detail::sign_at_valued_root(T(ew - ee), ev, root, x) <= 0;
      decision = on_segment ? trace::exact::RootDecision::candidate : trace::exact::RootDecision::outside_segment;
    }
    const bool candidate = decision == trace::exact::RootDecision::in_contact_at_start ||
                           decision == trace::exact::RootDecision::candidate;
    const bool replaced = candidate && best.offer(root, x, Feature::edge, i);
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::exact::EdgeRoot<T>{index, i, a, b, c, ew, ev, ee, root, decision, replaced});
  }

  // Face: (s0 + t k)^2 <= r^2 N, then the projection inside the closed triangle.
  const T nn = dot(n, n);
  if (!best.at_start()) {
    const T s0 = dot(n, w[0]);
    const T c = s0 * s0 - r2 * nn;
    trace::exact::PlaneDecision decision;
    QuadraticRoot<T> entry = QuadraticRoot<T>::value(T(0));
    if (options.on_face_plane) {
      decision = trace::exact::PlaneDecision::parallel_inside;
    } else if (detail::sign_zero(nn)) {
      decision = trace::exact::PlaneDecision::degenerate;
    } else if (detail::sign_zero(k)) {
      decision = detail::sign_not_positive(c) ? trace::exact::PlaneDecision::parallel_inside
                                   : trace::exact::PlaneDecision::parallel_outside;
    } else if (detail::sign_not_positive(c)) {
      decision = trace::exact::PlaneDecision::inside_at_start;
    } else if (num::sign(s0) * num::sign(k) >= 0) {
      // Outside the slab and s0 k >= 0: |s(t)| grows. (The discriminant 4 k^2 r^2 N is > 0.)
      decision = trace::exact::PlaneDecision::moving_away;
    } else if (!detail::lower_root_at_most_one(T(k * k), T(T(2) * s0 * k), c)) {
      decision = trace::exact::PlaneDecision::enters_after_end;
    } else {
      decision = trace::exact::PlaneDecision::enters;
      entry = QuadraticRoot<T>::quadratic(k * k, T(2) * s0 * k, c, RootKind::lower);
    }
    if constexpr (tracing_enabled<Tracer>) {
      plane_event.s0 = s0;
      plane_event.normal_squared = nn;
      plane_event.entry = entry;
      plane_event.decision = decision;
      tracer(plane_event);
    }
    const bool slab = decision == trace::exact::PlaneDecision::parallel_inside ||
                      decision == trace::exact::PlaneDecision::inside_at_start ||
                      decision == trace::exact::PlaneDecision::enters;
    // A face contact can only win if strictly earlier than the best edge or vertex.
    const detail::RootValue<T> entry_value = slab ? detail::root_value(entry) : detail::RootValue<T>{};
    if (slab && (!best.found || detail::compare_valued(entry, entry_value, best.time, best.value) < 0)) {
      [[maybe_unused]] EventSlot<Tracer, trace::exact::InsideTest<T>> inside_event;
      bool inside = true;
      // The same control flow traced or not: stop at the first edge the point is outside of.
      for (int i = 0; i < 3; ++i) {
        const Vec3<T> e = *p[(i + 1) % 3] - *p[i];
        const T alpha = dot(cross(e, w[i]), n);
        const T beta = dot(cross(e, v), n);
        const int s = detail::sign_at_valued_root(alpha, beta, entry, entry_value);
        if constexpr (tracing_enabled<Tracer>) {
          inside_event.alpha[i] = alpha;
          inside_event.beta[i] = beta;
          inside_event.sign[i] = s;
          inside_event.evaluated = i + 1;
        }
        if (s < 0) {
          inside = false;
          break;
        }
      }
      if constexpr (tracing_enabled<Tracer>) {
        inside_event.triangle = index;
        inside_event.time = entry;
        inside_event.inside = inside;
        tracer(inside_event);
      }
      if (inside) best.offer(entry, entry_value, Feature::face, 0);
    }
  } else if constexpr (tracing_enabled<Tracer>) {
    plane_event.normal_squared = nn;
    plane_event.decision = trace::exact::PlaneDecision::not_needed;
    tracer(plane_event);
  }

  if (best.found) detail::fill_result(out, best.time, best.feature, best.index, sphere, tri, &best.value);
  return out;
}

}  // namespace slidecheck::exact
