#pragma once
/// Step-by-step tracing of the detection algorithms.
///
/// Every algorithm takes a tracer template parameter. A tracer is any type with
/// `static constexpr bool enabled` and an `operator()` accepting each event type it wants
/// (a generic lambda-like `template <class E> void operator()(const E&)` accepts all).
/// Call sites are `if constexpr (tracing_enabled<Tracer>) tracer(Event{...});`, so with the
/// default NullTracer no event is even constructed: the traced source compiles to the
/// untraced code (benchmarks/reference/bench_detection.cpp measures this).
///
/// Events are plain structs named after the algorithm step (docs/architecture.md: the same
/// name in reference/, fast/, tests and trace events). Each carries the step's inputs,
/// outputs and the decision taken, in the algorithm's number type T.

#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace slidecheck {

/// The default tracer: receives nothing, costs nothing.
struct NullTracer {
  static constexpr bool enabled = false;
  template <class Event>
  void operator()(const Event&) const noexcept {}
};
static_assert(std::is_empty_v<NullTracer>, "the default tracer must carry no state");

/// True when calls to `Tracer` must be compiled in (cv-ref qualifiers ignored).
template <class Tracer>
inline constexpr bool tracing_enabled = std::remove_cvref_t<Tracer>::enabled;

/// An event filled in over several statements: the event itself when tracing, else an
/// empty placeholder, so an untraced run never constructs (say) CORE::Expr fields.
struct NoEvent {};
template <class Tracer, class Event>
using EventSlot = std::conditional_t<tracing_enabled<Tracer>, Event, NoEvent>;

namespace trace {

// ---------------------------------------------------------------------------------------
// Fauerby 2003, Appendix E (checkTriangle) and Appendix D (getLowestRoot).
// ---------------------------------------------------------------------------------------
namespace fauerby {

/// Outcome of the plane step of checkTriangle.
enum class PlaneDecision : unsigned char {
  culled_back_face,   ///< isFrontFacingTo(normalizedVelocity) is false (includes NaN: zero normal or velocity)
  parallel_outside,   ///< normalDotVelocity == 0 and |signedDist| >= 1: return
  embedded,           ///< normalDotVelocity == 0 and |signedDist| < 1: t0 = 0, t1 = 1
  interval_outside,   ///< t0 > 1 or t1 < 0: return
  interval,           ///< [t0, t1] clamped to [0, 1]
};

/// The decision's name, as traces and level B records write it.
inline std::string_view to_string(PlaneDecision d) {
  switch (d) {
    case PlaneDecision::culled_back_face: return "culled_back_face";
    case PlaneDecision::parallel_outside: return "parallel_outside";
    case PlaneDecision::embedded: return "embedded";
    case PlaneDecision::interval_outside: return "interval_outside";
    case PlaneDecision::interval: return "interval";
  }
  return "unknown";
}

/// The triangle plane and the interval [t0, t1] in which the unit sphere meets it.
template <class T>
struct PlaneInterval {
  static constexpr std::string_view name = "plane_interval";
  std::size_t triangle{};
  Vec3<T> normal;               ///< the normalised plane normal
  T plane_constant{};           ///< equation[3]
  T signed_distance{};          ///< signedDistanceTo(basePoint)
  T normal_dot_velocity{};
  T t0{}, t1{};                 ///< after swap and clamp (meaningful for `embedded`, `interval`)
  PlaneDecision decision{};
};

/// checkPointInTriangle (Appendix C) on the plane intersection point at t0.
template <class T>
struct InsideTest {
  static constexpr std::string_view name = "inside_test";
  std::size_t triangle{};
  Vec3<T> point;     ///< planeIntersectionPoint
  T x{}, y{}, z{};   ///< the three quantities whose sign bits decide
  bool inside{};     ///< sign bit of z set, sign bits of x and y clear
};

/// getLowestRoot for vertex `vertex` (0-based: p1 of the paper is vertex 0).
template <class T>
struct VertexRoot {
  static constexpr std::string_view name = "vertex_root";
  std::size_t triangle{};
  int vertex{};
  T a{}, b{}, c{}, max_root{};
  bool found{};   ///< getLowestRoot returned true: the hit replaces the current one
  T root{};       ///< valid when found
};

/// getLowestRoot for edge `edge` (edge i runs from vertex i to vertex i+1 mod 3) and the
/// segment test f in [0, 1].
template <class T>
struct EdgeRoot {
  static constexpr std::string_view name = "edge_root";
  std::size_t triangle{};
  int edge{};
  T a{}, b{}, c{}, max_root{};
  bool found{};           ///< getLowestRoot returned true
  T root{};               ///< valid when found
  T f{};                  ///< position on the edge at the root, valid when found
  bool within_segment{};  ///< f in [0, 1]: the hit replaces the current one
};

/// The mesh-level comparison of a triangle's hit against the nearest so far.
template <class T>
struct NearestHit {
  static constexpr std::string_view name = "nearest_hit";
  std::size_t triangle{};
  T time{};
  T distance{};   ///< t * |velocity|, the quantity Fauerby compares
  Feature feature{};
  int feature_index{};
  bool replaced{};  ///< first hit, or distance < nearestDistance
};

}  // namespace fauerby

// ---------------------------------------------------------------------------------------
// The exact-capable formulation (swept_sphere_triangle.hpp).
// ---------------------------------------------------------------------------------------
namespace exact {

enum class PlaneDecision : unsigned char {
  culled_back_face,   ///< n . v > 0 with back-face culling on
  degenerate,         ///< n = 0: no face, only edges and vertices
  parallel_outside,   ///< n . v = 0 and the centre is farther than r from the plane
  parallel_inside,    ///< n . v = 0 and within r of the plane: face candidate at t = 0
  inside_at_start,    ///< within r of the plane at t = 0: face candidate at t = 0
  moving_away,        ///< outside the slab and not approaching it
  enters_after_end,   ///< slab entry root > 1
  enters,             ///< slab entry at `entry` in (0, 1]
  not_needed,         ///< a vertex or edge touches at t = 0: nothing can be earlier
};

/// t = 0: the closest point of the triangle to the centre, and whether it is within r.
template <class T>
struct StartContact {
  static constexpr std::string_view name = "start_contact";
  std::size_t triangle{};
  T squared_distance{};   ///< dist(centre, triangle)^2
  Feature feature{};      ///< the smallest feature holding the closest point
  int feature_index{};
  bool in_contact{};      ///< squared_distance <= r^2: the impact is at t = 0
};

/// The slab |n . (C(t) - p0)| <= r |n|, as (s0 + t k)^2 <= r^2 N.
template <class T>
struct PlaneInterval {
  static constexpr std::string_view name = "plane_interval";
  std::size_t triangle{};
  Vec3<T> normal;            ///< unnormalised (p1 - p0) x (p2 - p0)
  T s0{};                    ///< n . (centre - p0): signed distance times |n|
  T k{};                     ///< n . velocity
  T normal_squared{};        ///< N = n . n
  QuadraticRoot<T> entry;    ///< the candidate time (0 or the slab entry root)
  PlaneDecision decision{};
};

/// Is the projection of C(t) inside the closed triangle: g_i = alpha_i + t beta_i >= 0.
template <class T>
struct InsideTest {
  static constexpr std::string_view name = "inside_test";
  std::size_t triangle{};
  QuadraticRoot<T> time;
  T alpha[3]{}, beta[3]{};   ///< ((e_i x (centre - p_i)) . n, (e_i x v) . n)
  int sign[3]{};             ///< sign of g_i at `time`
  int evaluated{};           ///< edges tested: the test stops at the first negative sign
  bool inside{};
};

enum class RootDecision : unsigned char {
  in_contact_at_start,  ///< c <= 0: candidate t = 0 (edge: only if also within the segment)
  no_root,              ///< a = 0, or discriminant < 0
  moving_away,          ///< b >= 0 with c > 0: both roots <= 0
  after_end,            ///< lower root > 1
  outside_segment,      ///< edge only: the line is met outside the segment
  candidate,            ///< a contact at `root`
};

/// |C(t) - p_i|^2 = r^2 as a t^2 + b t + c = 0.
template <class T>
struct VertexRoot {
  static constexpr std::string_view name = "vertex_root";
  std::size_t triangle{};
  int vertex{};
  T a{}, b{}, c{};
  QuadraticRoot<T> root;   ///< valid for `candidate`
  RootDecision decision{};
  bool replaced{};         ///< strictly earlier than the best candidate so far
};

/// Distance from C(t) to the line of edge i equals r, times |e|^2, and the segment test
/// 0 <= h(t) <= |e|^2 with h(t) = e . (C(t) - p_i).
template <class T>
struct EdgeRoot {
  static constexpr std::string_view name = "edge_root";
  std::size_t triangle{};
  int edge{};
  T a{}, b{}, c{};
  T h0{}, h1{}, edge_squared{};  ///< h(t) = h0 + t h1
  QuadraticRoot<T> root;         ///< valid for `candidate` and `outside_segment`
  RootDecision decision{};
  bool replaced{};
};

/// Mesh level: a triangle's first contact against the earliest so far.
template <class T>
struct NearestHit {
  static constexpr std::string_view name = "nearest_hit";
  std::size_t triangle{};
  QuadraticRoot<T> time;
  Feature feature{};
  int feature_index{};
  bool replaced{};  ///< strictly earlier than the best so far (ties keep the lower index)
};

/// Mesh level: the conservative box filter skipped a triangle.
struct FilterSkip {
  static constexpr std::string_view name = "filter_skip";
  std::size_t triangle{};
};

}  // namespace exact

// ---------------------------------------------------------------------------------------
// The exact swept capsule (detection/swept_capsule_triangle.hpp): the axis test at t = 0,
// then the sphere sweep of each of the eight triangles of the prism P = T + [-h, h], whose own
// exact:: events follow each PrismTriangle event, then the choice among them.
// ---------------------------------------------------------------------------------------
namespace capsule {

/// t = 0: dist(axis, triangle)^2, and whether the axis itself reaches the triangle.
template <class T>
struct AxisDistance {
  static constexpr std::string_view name = "axis_distance";
  std::size_t triangle{};
  T squared_distance{};
  bool axis_reaches{};  ///< squared_distance == 0: the contact is at t = 0 through the side
};

/// The sphere sweep of P's triangle `prism` (0: cap at end A, 1: cap at end B, 2 + 2i and
/// 3 + 2i: edge i's side quad) begins; its events carry the mesh triangle's index.
struct PrismTriangle {
  static constexpr std::string_view name = "prism_triangle";
  std::size_t triangle{};
  int prism{};
};

/// The prism triangle whose contact is reported (-1: none), and what it is on the capsule
/// (CapsulePart's value) and on the mesh triangle.
struct CapsuleChoice {
  static constexpr std::string_view name = "capsule_choice";
  std::size_t triangle{};
  int prism{};
  int part{};
  Feature feature{};
  int feature_index{};
};

}  // namespace capsule
}  // namespace trace
}  // namespace slidecheck
