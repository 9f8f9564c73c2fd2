// robust/detection.hpp's box entry time and its place in first_blocking_contact: known entries,
// exact types unaffected, and as RapidCheck properties on random triangle soups (float and
// double, offsets to 2^16, ties from duplicated triangles) that no blocking contact comes before
// its triangle's box entry, that the least (time, index) is the index-order definition's contact,
// and that the search by entry finds that contact; exact types search by a lower bound of the box
// entry (known bounds, and in CORE::Expr the definition's contact exactly).
#include <slidecheck/reference/response/robust/detection.hpp>

#include <support/number_types.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

using namespace slidecheck;

namespace {

bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

template <class T>
Triangle<T> box_triangle(T x0, T x1, T y0, T y1, T z) {
  return {{x0, y0, z}, {x1, y0, z}, {x0, y1, z}};
}

/// A soup of n triangles around the origin (coordinates on a grid of `scale` / 1000 plus an
/// offset), some duplicated (equal contact times: the index decides).
template <class T>
IndexedMesh<T> random_soup(double scale, double offset) {
  IndexedMesh<T> m;
  const int n = *rc::gen::inRange(1, 30);
  auto coord = [&] { return T(offset + scale * *rc::gen::inRange(-3000, 3001) / 1000.0); };
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::uint32_t>(m.vertices.size());
    if (i > 0 && *rc::gen::inRange(0, 5) == 0) {
      const std::size_t j = *rc::gen::inRange<std::size_t>(0, m.triangle_count());
      const Triangle<T> t = m.triangle(j);
      m.vertices.insert(m.vertices.end(), {t.p0, t.p1, t.p2});
    } else {
      for (int v = 0; v < 3; ++v) m.vertices.push_back({coord(), coord(), coord()});
    }
    m.triangles.push_back({k, k + 1, k + 2});
  }
  return m;
}

template <class T>
void contacts_come_no_earlier_than_the_box_entry() {
  const double scale = std::ldexp(1.0, *rc::gen::inRange(-6, 7));
  const double offset = *rc::gen::element(0.0, 1.0, 1000.0, 65536.0) * scale;
  const IndexedMesh<T> mesh = random_soup<T>(scale, offset);
  auto coord = [&] { return T(offset + scale * *rc::gen::inRange(-3000, 3001) / 1000.0); };
  const Vec3<T> center(coord(), coord(), coord());
  const Vec3<T> move(T(scale * *rc::gen::inRange(-4000, 4001) / 1000.0), T(scale * *rc::gen::inRange(-4000, 4001) / 1000.0),
                     T(scale * *rc::gen::inRange(-4000, 4001) / 1000.0));
  const T radius = T(scale * *rc::gen::inRange(1, 2000) / 1000.0);
  const SweptSphere<T> sphere{center, move, radius};
  const exact::Box swept = exact::swept_box(center, move, Vec3<T>(radius, radius, radius));
  std::optional<robust::BlockingContact<T>> least;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<T> tri = mesh.triangle(i);
    if (!exact::may_touch(swept, tri)) continue;
    const T entry = robust::box_entry_time(center, move, radius, tri);
    RC_ASSERT(entry >= T(0));
    const auto c = robust::blocking_contact(sphere, tri, i, entry);
    if (!c) continue;
    RC_ASSERT(c->time >= entry);
    RC_ASSERT(c->time <= T(1));
    if (!least || c->time < least->time || (c->time == least->time && c->triangle < least->triangle)) least = c;
  }
  const auto ref = robust::first_blocking_contact_in_index_order(center, move, radius, mesh);
  RC_ASSERT(ref.has_value() == least.has_value());
  if (ref) {
    RC_ASSERT(ref->triangle == least->triangle);
    RC_ASSERT(ref->time == least->time);
  }
  RC_CLASSIFY(ref.has_value(), "hit");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_detection)

BOOST_AUTO_TEST_CASE(box_entry_times_of_known_boxes) {
  // Radius 1 from the origin along +x by 10: the box's leading face (x = 1 + 10 t) meets the
  // triangle's nearer face x = 5 at t = 0.4; along y and z it overlaps from the start.
  const Triangle<double> ahead = box_triangle(5.0, 6.0, -1.0, 1.0, 0.0);
  BOOST_TEST(robust::box_entry_time<double>({0, 0, 0}, {10, 0, 0}, 1.0, ahead) == 0.4);
  // Moving away, or already overlapping: 0.
  BOOST_TEST(robust::box_entry_time<double>({0, 0, 0}, {-10, 0, 0}, 1.0, ahead) == 0);
  BOOST_TEST(robust::box_entry_time<double>({5.5, 0, 0}, {10, 0, 0}, 1.0, ahead) == 0);
  // Two axes: the later one decides (y: the face y = 3 reached at t = (3 - 1) / 4 = 0.5).
  const Triangle<double> corner = box_triangle(5.0, 6.0, 3.0, 4.0, 0.0);
  BOOST_TEST(robust::box_entry_time<double>({0, 0, 0}, {10, 4, 0}, 1.0, corner) == 0.5);
  // Negative direction: the face x = 6 + 1 reached from x = 20 moving by -26: t = 0.5.
  BOOST_TEST(robust::box_entry_time<double>({20, 0, 0}, {-26, 0, 0}, 1.0, ahead) == 0.5);
  // A NaN coordinate or move adds nothing; an axis without motion adds nothing.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(robust::box_entry_time<double>({0, 0, 0}, {nan, 0, 0}, 1.0, ahead) == 0);
  BOOST_TEST(robust::box_entry_time<double>({0, 0, 0}, {0, 0, 10}, 1.0, ahead) == 0);
  // Float too.
  BOOST_TEST(robust::box_entry_time<float>({0, 0, 0}, {10, 0, 0}, 1.0f, box_triangle(5.f, 6.f, -1.f, 1.f, 0.f)) ==
             0.4f);
}

BOOST_AUTO_TEST_CASE(exact_types_take_no_entry) {
  // An exact contact time is never before the boxes meet: nothing to raise.
  const Triangle<Rational> ahead = box_triangle(Rational(5), Rational(6), Rational(-1), Rational(1), Rational(0));
  BOOST_TEST(robust::box_entry_time<Rational>({0, 0, 0}, {10, 0, 0}, Rational(1), ahead) == 0);
  // The exact contact (CORE) with the triangle's edge x = 5 at radius 1: t = 0.4, the entry itself.
  const Triangle<Real> edge = box_triangle(Real(5), Real(6), Real(-1), Real(1), Real(0));
  IndexedMesh<Real> m;
  m.vertices = {edge.p0, edge.p1, edge.p2};
  m.triangles = {{0, 1, 2}};
  const auto c = robust::first_blocking_contact<Real>({Real(0), Real(0), Real(0)}, {Real(10), Real(0), Real(0)}, Real(1), m);
  BOOST_REQUIRE(c.has_value());
  BOOST_TEST((c->time == Real(2) / Real(5)));
}

RC_BOOST_PROP(float_contacts_come_no_earlier_than_the_box_entry, ()) { contacts_come_no_earlier_than_the_box_entry<float>(); }
RC_BOOST_PROP(double_contacts_come_no_earlier_than_the_box_entry, ()) {
  contacts_come_no_earlier_than_the_box_entry<double>();
}

namespace {

/// A sweep among triangles strewn along its path (several contacts, the visiting order
/// matters), a quarter copies of an earlier one or its neighbours across an edge (ties: the
/// index decides), moves in a plane a quarter of the time (ties and grazing contacts).
struct PathScene {
  Vec3<double> center, move;
  double radius = 0;
  IndexedMesh<double> mesh;
};

PathScene path_scene(int most_triangles) {
  PathScene s;
  const double scale = std::ldexp(1.0, *rc::gen::inRange(-6, 7));
  const double offset = *rc::gen::element(0.0, 1.0, 1000.0, 65536.0) * scale;
  auto coord = [&] { return offset + scale * *rc::gen::inRange(-3000, 3001) / 1000.0; };
  s.center = {coord(), coord(), coord()};
  const double reach = scale * *rc::gen::element(1, 100, 4000, 20000) / 1000.0;
  auto component = [&] { return reach * *rc::gen::inRange(-1000, 1001) / 1000.0; };
  s.move = {component(), component(), component()};
  if (*rc::gen::inRange(0, 4) == 0) s.move.z = 0;
  s.radius = scale * *rc::gen::inRange(1, 2000) / 1000.0;
  const int n = *rc::gen::inRange(1, most_triangles + 1);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::uint32_t>(s.mesh.vertices.size());
    const int kind = *rc::gen::inRange(0, 4);
    if (i > 0 && kind == 0) {
      // A duplicate (the same times, a higher index), or a neighbour across an edge, which may
      // touch that edge at the same time from another box.
      const Triangle<double> t = s.mesh.triangle(*rc::gen::inRange<std::size_t>(0, s.mesh.triangle_count()));
      Vec3<double> third = t.p2;
      if (*rc::gen::inRange(0, 2) == 0) {
        const Vec3<double> p = s.center + s.move * (*rc::gen::inRange(0, 1001) / 1000.0);
        third = {p.x + s.radius * *rc::gen::inRange(-2000, 2001) / 1000.0,
                 p.y + s.radius * *rc::gen::inRange(-2000, 2001) / 1000.0,
                 p.z + s.radius * *rc::gen::inRange(-2000, 2001) / 1000.0};
      }
      s.mesh.vertices.insert(s.mesh.vertices.end(), {t.p0, t.p1, third});
    } else if (kind == 1) {
      for (int v = 0; v < 3; ++v) s.mesh.vertices.push_back({coord(), coord(), coord()});
    } else {
      const double along = *rc::gen::inRange(0, 1001) / 1000.0;
      const Vec3<double> p = s.center + s.move * along;
      auto near = [&] { return s.radius * *rc::gen::inRange(-2000, 2001) / 1000.0; };
      for (int v = 0; v < 3; ++v) s.mesh.vertices.push_back({p.x + near(), p.y + near(), p.z + near()});
    }
    s.mesh.triangles.push_back({k, k + 1, k + 2});
  }
  return s;
}

}  // namespace

// first_blocking_contact_by_entry (what robust runs for IEEE types, and fast/'s sweep) against
// the definition in index order, field by field. Stopping at half the best time instead of the
// best time fails within about 30 cases.
RC_BOOST_PROP(by_entry_is_the_index_order_contact, ()) {
  const PathScene s = path_scene(60);
  std::vector<std::pair<double, std::uint32_t>> by_entry;
  const auto by_entry_contact = robust::first_blocking_contact_by_entry(s.center, s.move, s.radius, s.mesh, by_entry);
  const auto ref = robust::first_blocking_contact_in_index_order(s.center, s.move, s.radius, s.mesh);
  RC_ASSERT(by_entry_contact.has_value() == ref.has_value());
  RC_CLASSIFY(ref.has_value(), "hit");
  if (!ref) return;
  RC_ASSERT(by_entry_contact->triangle == ref->triangle);
  RC_ASSERT(same(by_entry_contact->time, ref->time));
  RC_ASSERT(same(by_entry_contact->contact_point.x, ref->contact_point.x));
  RC_ASSERT(same(by_entry_contact->contact_point.y, ref->contact_point.y));
  RC_ASSERT(same(by_entry_contact->contact_point.z, ref->contact_point.z));
  RC_ASSERT(by_entry_contact->feature == ref->feature);
  RC_ASSERT(by_entry_contact->feature_index == ref->feature_index);
  RC_ASSERT(by_entry_contact->at_start == ref->at_start);
}

// What robust runs for exact types, first_blocking_contact_by_entry_bound (the triangles in order
// of a lower bound of their box entry, stopped past the best time), against the definition in
// index order, in CORE::Expr: the same contact, exactly. Stopping at half the best time's
// enclosure fails it; the index rule for equal times is an_equal_time_found_later_wins_with_a_lower_index's.
RC_BOOST_PROP(exact_by_entry_bound_is_the_index_order_contact, ()) {
  const PathScene s = path_scene(16);
  auto real = [](const Vec3<double>& v) { return Vec3<Real>(Real(v.x), Real(v.y), Real(v.z)); };
  IndexedMesh<Real> mesh;
  for (const Vec3<double>& v : s.mesh.vertices) mesh.vertices.push_back(real(v));
  mesh.triangles = s.mesh.triangles;
  const Vec3<Real> center = real(s.center), move = real(s.move);
  const Real radius(s.radius);
  const auto by_bound = robust::first_blocking_contact(center, move, radius, mesh);
  const auto ref = robust::first_blocking_contact_in_index_order(center, move, radius, mesh);
  RC_ASSERT(by_bound.has_value() == ref.has_value());
  RC_CLASSIFY(ref.has_value(), "hit");
  if (!ref) return;
  RC_CLASSIFY(ref->triangle > 0, "not the first triangle");
  bool tied = false;  // another triangle blocks at the same time: the index decides
  for (std::size_t i = 0; i < mesh.triangle_count() && !tied; ++i)
    if (i != ref->triangle) {
      const auto other = robust::blocking_contact(SweptSphere<Real>{center, move, radius}, mesh.triangle(i), i, Real(0));
      tied = other && other->time == ref->time;
    }
  RC_CLASSIFY(tied, "another triangle at the same time");
  RC_ASSERT(by_bound->triangle == ref->triangle);
  RC_ASSERT(by_bound->time == ref->time);
  RC_ASSERT(by_bound->contact_point.x == ref->contact_point.x);
  RC_ASSERT(by_bound->contact_point.y == ref->contact_point.y);
  RC_ASSERT(by_bound->contact_point.z == ref->contact_point.z);
  RC_ASSERT(by_bound->feature == ref->feature);
  RC_ASSERT(by_bound->feature_index == ref->feature_index);
  RC_ASSERT(by_bound->at_start == ref->at_start);
}

namespace {

/// entry_lower_bound of a triangle x in [5, 6] ahead of a unit sphere at the origin moving 10
/// along x (the boxes meet at t = 0.4) or back along -x (behind it: no bound).
template <class T>
void the_entry_bound_is_below_the_entry() {
  const Triangle<T> ahead = box_triangle(T(5), T(6), T(-1), T(1), T(0));
  const double forward = robust::detection_detail::entry_lower_bound<T>({0, 0, 0}, {10, 0, 0}, T(1), ahead);
  BOOST_TEST(forward <= 0.4);
  BOOST_TEST(forward > 0.4 - 1e-12);
  BOOST_TEST(robust::detection_detail::entry_lower_bound<T>({0, 0, 0}, {-10, 0, 0}, T(1), ahead) == 0);
  // Already overlapping along x, and no motion across y: 0.
  BOOST_TEST(robust::detection_detail::entry_lower_bound<T>({T(5), 0, 0}, {0, 10, 0}, T(1), ahead) == 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(entry_bounds_of_known_boxes) {
  the_entry_bound_is_below_the_entry<Rational>();
  the_entry_bound_is_below_the_entry<Real>();
}

// Two triangles in the plane z = 0 share the edge from A (5, -1) to B (3, 5), which a unit sphere
// moving 10 along x from the origin (in that plane) touches first. Triangle 0 reaches ahead to
// (10, 0), its box met at t = 0.2; triangle 1 reaches back to (2, 12), well off the path (its
// other edge is met later), its box met at 0.1. So the search by entry bound visits triangle 1
// first, and must still take triangle 0, the lower index, at the same time.
BOOST_AUTO_TEST_CASE(an_equal_time_found_later_wins_with_a_lower_index) {
  IndexedMesh<Real> mesh;
  mesh.vertices = {{Real(5), Real(-1), Real(0)}, {Real(3), Real(5), Real(0)}, {Real(10), Real(0), Real(0)},
                   {Real(2), Real(12), Real(0)}};
  mesh.triangles = {{0, 1, 2}, {0, 1, 3}};
  const Vec3<Real> center(Real(0), Real(0), Real(0)), move(Real(10), Real(0), Real(0));
  const Real radius(1);
  const double first = robust::detection_detail::entry_lower_bound(center, move, radius, mesh.triangle(0));
  const double second = robust::detection_detail::entry_lower_bound(center, move, radius, mesh.triangle(1));
  BOOST_TEST(second < first);
  const auto c = robust::first_blocking_contact(center, move, radius, mesh);
  BOOST_REQUIRE(c.has_value());
  BOOST_TEST(c->triangle == 0u);
  BOOST_TEST(c->time.doubleValue() > first);
  const auto other = robust::blocking_contact(SweptSphere<Real>{center, move, radius}, mesh.triangle(1), 1, Real(0));
  BOOST_REQUIRE(other.has_value());
  BOOST_TEST((other->time == c->time));
}

// support_plane in exact types: the support is the vertices' largest n . v and the plane's
// distance n . x - support, as the definition has them, computed from the closest point.
RC_BOOST_PROP(exact_support_plane_is_the_vertices_support, ()) {
  auto lattice = [] { return Real(*rc::gen::inRange(-2, 3)); };
  auto point = [&] { return Vec3<Real>(lattice(), lattice(), lattice()); };
  const Triangle<Real> tri{point(), point(), point()};
  const Vec3<Real> x = point();
  const robust::SupportPlane<Real> sp = robust::support_plane(x, tri);
  Real most = dot(sp.normal, tri.p0);
  for (const Vec3<Real>* v : {&tri.p1, &tri.p2})
    if (dot(sp.normal, *v) > most) most = dot(sp.normal, *v);
  RC_ASSERT(sp.support == most);
  RC_ASSERT(sp.plane_distance == dot(sp.normal, x) - most);
  RC_ASSERT(dot(sp.normal, sp.normal) == Real(1));
}

// A degenerate triangle under the centre (a surface that rounding collapsed to a line): every
// triangle along the line takes the same supporting direction, +z made perpendicular to the line
// (+y for a line near z), with the distance bound 0, whichever way its edges run and in every
// number type robust computes in; off the line the bound is the distance.
BOOST_AUTO_TEST_CASE_TEMPLATE(degenerate_triangles_along_a_line_agree, T, test::SqrtNumberTypes) {
  const Vec3<T> o(T(0), T(0), T(0));
  const Vec3<T> ex(T(3), T(0), T(0)), ez(T(0), T(0), T(3)), d(T(1), T(2), T(0));
  // Segments through the origin along x (both ways, the origin at an end or inside, a point).
  for (const Triangle<T>& tri : {Triangle<T>{o, ex, o - ex}, Triangle<T>{ex, o, ex + ex}, Triangle<T>{o - ex, o, o},
                                 Triangle<T>{o, o, o}}) {
    const robust::SupportPlane<T> sp = robust::support_plane(o, tri);
    BOOST_TEST(sp.normal.x == T(0));
    BOOST_TEST(sp.normal.y == T(0));
    BOOST_TEST(sp.normal.z == T(1));
    BOOST_TEST(sp.plane_distance == T(0));
  }
  // Along z: +y.
  for (const Triangle<T>& tri : {Triangle<T>{o, ez, o - ez}, Triangle<T>{ez, o, ez + ez}}) {
    const robust::SupportPlane<T> sp = robust::support_plane(o, tri);
    BOOST_TEST(sp.normal.y == T(1));
    BOOST_TEST(sp.plane_distance == T(0));
  }
  // Along (1, 2, 0): +z again (perpendicular to the line already).
  const robust::SupportPlane<T> slanted = robust::support_plane(o, Triangle<T>{o - d, d, o});
  BOOST_TEST(slanted.normal.z == T(1));
  // Off the line the distance decides: a centre 2 above a segment along x.
  const Vec3<T> above(T(1), T(0), T(2));
  const robust::SupportPlane<T> up = robust::support_plane(above, Triangle<T>{o, ex, o - ex});
  BOOST_TEST(up.plane_distance == T(2));
  const Vec3<T> aside(T(1), T(-2), T(0));
  const robust::SupportPlane<T> side = robust::support_plane(aside, Triangle<T>{o, ex, o - ex});
  BOOST_TEST(side.normal.y == T(-1));
  BOOST_TEST(side.plane_distance == T(2));
}

// As a property: for a centre on a random line and random segments along it that reach it
// (floats and doubles, any direction, the centre inside or at an end), every triangle takes
// nearly the same normal, perpendicular to the line within round-off, whose bound is within
// round-off of 0 (the distance): the start constraints of such a centre agree.
template <class T>
void degenerate_line_triangles_agree() {
  auto small = [] { return T(*rc::gen::inRange(-40, 41)); };
  const Vec3<T> x(small(), small(), small());
  const Vec3<T> dir(small(), small(), small());
  RC_PRE(!is_zero(dir));
  const T length = std::sqrt(dot(dir, dir));
  const T tol = T(4096) * std::numeric_limits<T>::epsilon();
  std::optional<Vec3<T>> first;
  const int n = *rc::gen::inRange(2, 8);
  for (int i = 0; i < n; ++i) {
    int k[3];
    for (int& ki : k) ki = *rc::gen::inRange(-3, 4);
    if (*std::min_element(k, k + 3) > 0 || *std::max_element(k, k + 3) < 0) continue;  // x beyond its end
    if (k[0] == k[1] && k[1] == k[2]) continue;  // a point (at x: +z)
    const Triangle<T> tri{x + dir * T(k[0]), x + dir * T(k[1]), x + dir * T(k[2])};
    const robust::SupportPlane<T> sp = robust::support_plane(x, tri);
    RC_ASSERT(std::abs(sp.plane_distance) <= tol * T(200));
    RC_ASSERT(std::abs(dot(sp.normal, dir)) <= tol * length);
    if (!first) first = sp.normal;
    RC_ASSERT(length_squared(sp.normal - *first) <= tol * tol);
  }
}

RC_BOOST_PROP(float_degenerate_line_triangles_agree, ()) { degenerate_line_triangles_agree<float>(); }
RC_BOOST_PROP(double_degenerate_line_triangles_agree, ()) { degenerate_line_triangles_agree<double>(); }

BOOST_AUTO_TEST_SUITE_END()
