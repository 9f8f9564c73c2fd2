// RapidCheck generators of candidates near degenerate configurations (search_generators.hpp).
#include "search/search_generators.hpp"

#include "search/candidate_shrinks.hpp"
#include "search/capsule_clearance.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <variant>
#include <vector>

namespace slidecheck::verify {

namespace {

using V = Vec3<double>;

double pow2(int e) { return std::ldexp(1.0, e); }

int draw(int lo, int hi_inclusive) { return *rc::gen::inRange(lo, hi_inclusive + 1); }
bool chance(int one_in) { return draw(1, one_in) == 1; }


// x moved by n ULPs of the precision.
double nudge(double x, int n, Precision p) {
  if (p == Precision::single_float) {
    float f = static_cast<float>(x);
    for (int i = 0; i < std::abs(n); ++i)
      f = std::nextafter(f, n > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
    return f;
  }
  for (int i = 0; i < std::abs(n); ++i)
    x = std::nextafter(x, n > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
  return x;
}

// A construction under way: exact (or double) geometry before rounding. `away` points out of
// the construction's surfaces, where a start is clear (a capsule start is lifted along it until
// it is exactly clear); `along` lies in them (a lying capsule's axis).
struct Builder {
  Candidate c;
  V away{0, 0, 1};
  V along{1, 0, 0};
  void triangle(const V& a, const V& b, const V& d) {
    auto& m = c.scene.mesh;
    const auto base = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), {a, b, d});
    m.triangles.push_back({base, base + 1, base + 2});
  }
};

// Rotates the construction exactly by the drawn rotation and moves it by `offset`, each
// coordinate rounded once to the precision: round(R x + offset) for points, round(R v) for the
// move and gravity.
void rotate_and_place(Candidate& c, const ExactRotation& rotation, const V& offset, Precision p) {
  auto round = [p](const Rational& x) {
    return p == Precision::single_float ? double(round_to_nearest<float>(x)) : round_to_nearest<double>(x);
  };
  auto exact = [](const V& v) { return Vec3<Rational>{to_rational(v.x), to_rational(v.y), to_rational(v.z)}; };
  auto place = [&](const V& v, const V& shift) {
    const Vec3<Rational> r = rotation.apply(exact(v)) + exact(shift);
    return V{round(r.x), round(r.y), round(r.z)};
  };
  for (auto& v : c.scene.mesh.vertices) v = place(v, offset);
  c.query.start = place(c.query.start, offset);
  c.query.displacement = place(c.query.displacement, {0, 0, 0});
  c.query.gravity = place(c.query.gravity, {0, 0, 0});
  if (auto* capsule = std::get_if<Capsule<double>>(&c.query.shape)) capsule->half_axis = place(capsule->half_axis, {0, 0, 0});
}

// A direction turned by the rotation (in double: it only says where to lift a start).
V turned(const ExactRotation& rotation, const V& v) {
  const Vec3<Rational> r = rotation.apply(Vec3<Rational>{to_rational(v.x), to_rational(v.y), to_rational(v.z)});
  return {round_to_nearest<double>(r.x), round_to_nearest<double>(r.y), round_to_nearest<double>(r.z)};
}

// Lifts a capsule's start along `away` until it is exactly clear of the mesh (capsule_clearance
// > 0): by the double estimate of its overlap plus a step that starts at 2^-20 of the radius and
// doubles, each try rounded once to the precision from the start as generated, so a start that
// touches or overlaps ends just clear.
void lift_clear(Candidate& c, const V& away, Precision p) {
  auto* capsule = std::get_if<Capsule<double>>(&c.query.shape);
  if (!capsule || capsule_clearance(*capsule, c.query.start, c.scene.mesh) > 0) return;
  const V unit = away * (1 / length(away));
  const V from = c.query.start;
  const double overlap = std::max(0.0, -capsule_gap_estimate(*capsule, from, c.scene.mesh));
  double step = std::ldexp(capsule->radius, -20);
  for (int k = 0; k < 200; ++k, step *= 2) {
    const V lifted = from + unit * (overlap + step);
    c.query.start = {round_to(lifted.x, p), round_to(lifted.y, p), round_to(lifted.z, p)};
    if (capsule_clearance(*capsule, c.query.start, c.scene.mesh) > 0) return;
  }
  throw std::logic_error("search: a capsule start could not be lifted clear of its mesh");
}

// Rounds the construction once to the precision (rotated first when `rotated`), maybe moves it
// far from the origin, and moves a few of its numbers by a few ULPs.
Candidate finish(Builder b, std::string_view name, Algorithm algorithm, Precision p, bool rotated) {
  Candidate& c = b.c;
  V away = b.away;
  c.scene.name = std::string(name);
  c.scene.units = "unknown";
  c.scene.source = "slidecheck search, construction " + std::string(name);
  c.scene.licence = "CC0-1.0";
  c.scene.precision = p;
  c.query.id = std::string(name);
  c.query.scene = "(embedded)";
  c.query.algorithm = algorithm;
  // The rotation is drawn first, so that an unrotated search draws exactly what it always did.
  const std::size_t turn = rotated ? static_cast<std::size_t>(draw(0, std::size(general_rotations) - 1)) : 0;
  V offset{0, 0, 0};
  if (chance(3)) {
    const int max_exp = p == Precision::single_float ? 20 : 40;
    offset.x = chance(2) ? (chance(2) ? 1 : -1) * pow2(draw(4, max_exp)) : 0;
    offset.y = chance(2) ? (chance(2) ? 1 : -1) * pow2(draw(4, max_exp)) : 0;
    offset.z = chance(2) ? (chance(2) ? 1 : -1) * pow2(draw(4, max_exp)) : 0;
    if (!rotated) {
      for (auto& v : c.scene.mesh.vertices) v = v + offset;
      c.query.start = c.query.start + offset;
    }
  }
  if (rotated) {
    const ExactRotation& rotation = general_rotations[turn];
    rotate_and_place(c, rotation, offset, p);
    away = turned(rotation, away);
    const std::string r = "r" + std::to_string(turn + 1);
    c.query.id += "-" + r;
    c.scene.source += ", rotated by " + r + " (quaternion " + rotation.text() + ")";
  }
  for (std::size_t i = 0; i < number_count(c); ++i) c = with_number(c, i, number(c, i));  // round once
  for (std::size_t i = 0; i < number_count(c); ++i)
    if (chance(8)) {
      const double moved = nudge(number(c, i), draw(-2, 2), p);
      if (!is_radius_number(c, i) || moved > 0) c = with_number(c, i, moved);
    }
  if (auto* capsule = std::get_if<Capsule<double>>(&c.query.shape)) {
    if (zero_half_axis(c.query.shape)) capsule->half_axis.z = capsule->radius;  // a sphere is not a capsule
    lift_clear(c, away, p);
  }
  return c;
}

// Scale of the construction (2^-3..2^4) and a sphere radius at that scale.
struct Scale {
  double s, r;
};
Scale draw_scale() {
  const double s = pow2(draw(-3, 4));
  return {s, s * draw(2, 16) / 8.0};
}

Builder floor_touch() {
  const auto [s, r] = draw_scale();
  Builder b;
  const double half = chance(4) ? s * pow2(draw(10, 20)) : s * 8;
  const V a{-half, -half, 0}, bb{half, -half, 0}, c{half, half, 0}, d{-half, half, 0};
  b.triangle(a, bb, c);  // the seam runs along the diagonal a-c
  b.triangle(a, c, d);
  Query& q = b.c.query;
  q.start = {s * draw(-16, 16) / 4.0, s * draw(-16, 16) / 4.0, r};
  q.set_radius(r);
  double dz = 0;
  switch (draw(0, 2)) {
    case 1: dz = -s * draw(1, 8) / 8.0; break;
    case 2: dz = -s * pow2(-draw(10, 40)); break;
    default: break;
  }
  q.displacement = {s * draw(-16, 16) / 2.0, s * draw(-16, 16) / 2.0, dz};
  if (chance(2)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

Builder plane_parallel() {
  const auto [s, r] = draw_scale();
  const V normals[] = {{0, 3, 4}, {1, 2, 2}, {2, 3, 6}, {1, 4, 8}, {0, 1, 1}, {1, 1, 1}, {1, 2, 3}, {0, 1, 7}};
  V n = normals[draw(0, 7)];
  if (chance(3)) n = {double(draw(-4, 4)), double(draw(-4, 4)), double(draw(1, 4))};
  V u = cross(n, V{1, 0, 0});
  if (u.x == 0 && u.y == 0 && u.z == 0) u = cross(n, V{0, 1, 0});
  const V v = cross(n, u);  // u, v: integer vectors in the plane n.x = 0
  const double k = s * 8 / std::max(length(u), length(v));
  Builder b;
  b.away = n;
  b.along = u;
  const V p0 = (u + v) * -k, p1 = (u - v) * k, p2 = v * (2 * k);
  b.triangle(p0, p1, p2);
  if (chance(2)) b.triangle(p0, p2, (v - u) * k);  // a coplanar neighbour: a seam
  Query& q = b.c.query;
  q.set_radius(r);
  const double a1 = draw(-2, 2) / 8.0, a2 = draw(-2, 2) / 8.0;
  q.start = n * (r / length(n)) + (u * a1 + v * a2) * k;  // distance r, rounded later
  const double m = s * pow2(-draw(0, 3));
  q.displacement = (u * double(draw(-3, 3)) + v * double(draw(-3, 3))) * (m / std::max(length(u), 1.0));
  if (chance(3)) q.displacement = q.displacement - n * (s * pow2(-draw(8, 30)));
  if (chance(3)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

Builder edge_parallel() {
  const auto [s, r] = draw_scale();
  const double half = s * 8, w = s * 4;
  // Near 180 degrees (nearly flat, h/w = 2^-j) or near 0 (a knife edge, h/w = 2^j).
  const double h = chance(2) ? w * pow2(-draw(4, 20)) : w * pow2(draw(2, 10));
  const bool ridge = chance(2);
  const double zc = ridge ? -h : h;
  Builder b;
  const V e0{-half, 0, 0}, e1{half, 0, 0};
  b.triangle(e0, e1, V{0, w, zc});
  b.triangle(e1, e0, V{0, -w, zc});
  Query& q = b.c.query;
  q.set_radius(r);
  // Ridge: touching the edge at exactly r from above. Crease: touching both faces.
  const double z = ridge ? r : r * std::sqrt(1 + (h / w) * (h / w));
  q.start = {s * draw(-8, 8) / 4.0, 0, z};
  switch (draw(0, 2)) {
    case 0: q.displacement = {s * draw(-16, 16) / 2.0, 0, 0}; break;                         // along the edge
    case 1: q.displacement = {s * draw(-16, 16) / 2.0, s * pow2(-draw(6, 30)), 0}; break;    // almost along
    default: q.displacement = {0, s * draw(-16, 16) / 2.0, -s * draw(0, 4) / 4.0}; break;   // across
  }
  if (chance(2)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

Builder sliver() {
  const auto [s, r] = draw_scale();
  const double len = s * 8, h = len * pow2(-draw(8, 20));
  Builder b;
  if (chance(2))
    b.triangle(V{0, 0, 0}, V{len, 0, 0}, V{len / 2, h, 0});  // a sliver
  else
    b.triangle(V{0, 0, 0}, V{len, 0, 0}, V{len + len * pow2(-draw(2, 8)), h, 0});  // a needle
  Query& q = b.c.query;
  q.set_radius(r);
  const double x0 = len * draw(1, 7) / 8.0, y0 = s * draw(-2, 2) / 8.0;
  if (chance(2)) {
    q.start = {x0, y0, r + s * draw(1, 4)};
    q.displacement = {0, 0, -s * draw(2, 9)};  // fall onto it
  } else {
    q.start = {x0, y0 + (chance(2) ? -2 : 2) * r, r};
    q.displacement = {s * draw(-2, 2), s * draw(-8, 8) / 2.0, 0};  // pass over it, grazing
  }
  if (chance(2)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

Builder corner_push() {
  const auto [s, r] = draw_scale();
  const double len = s * 8;
  const double ta = chance(2) ? 0 : (chance(2) ? 1 : -1) * pow2(-draw(2, 20));
  const double tb = chance(2) ? 0 : (chance(2) ? 1 : -1) * pow2(-draw(2, 20));
  Builder b;
  b.away = {1, 1, 1};  // out of the corner
  b.along = {1, -1, 0};
  b.triangle(V{0, 0, 0}, V{len, 0, 0}, V{len, len, 0});  // floor
  b.triangle(V{0, 0, 0}, V{len, len, 0}, V{0, len, 0});
  b.triangle(V{0, 0, 0}, V{0, len, 0}, V{ta * len, len, len});  // wall x = 0, tilted by ta
  b.triangle(V{0, 0, 0}, V{ta * len, len, len}, V{ta * len, 0, len});
  b.triangle(V{0, 0, 0}, V{tb * len, 0, len}, V{len, 0, 0});  // wall y = 0, tilted by tb
  b.triangle(V{len, 0, 0}, V{tb * len, 0, len}, V{len, tb * len, len});
  Query& q = b.c.query;
  q.set_radius(r);
  q.start = {r + s * draw(0, 4) / 8.0 + std::fabs(ta) * 2 * r, r + s * draw(0, 4) / 8.0 + std::fabs(tb) * 2 * r,
             r + s * draw(0, 2) / 8.0};
  q.displacement = {-s * draw(1, 8) / 4.0, -s * draw(1, 8) / 4.0, -s * draw(0, 4) / 4.0};
  if (chance(2)) q.gravity = {0, 0, -s * draw(1, 4) / 2.0};
  return b;
}

Builder random_soup() {
  const auto [s, r] = draw_scale();
  Builder b;
  // A copy to capture: clang before 16 cannot capture a structured binding (the fuzz build).
  auto point = [&, s = s] { return V{s * draw(-8, 8) / 4.0, s * draw(-8, 8) / 4.0, s * draw(-8, 8) / 4.0}; };
  const int n = draw(1, 5);
  for (int i = 0; i < n; ++i) b.triangle(point(), point(), point());
  Query& q = b.c.query;
  q.set_radius(r);
  q.start = point();
  q.displacement = {s * draw(-16, 16) / 4.0, s * draw(-16, 16) / 4.0, s * draw(-16, 16) / 4.0};
  if (chance(2)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

// The capsule of a sphere construction, drawn after it: upright along `away` with its lower end
// where the sphere was, lying along the surface (centre where the sphere was), or tilted by
// 2^-2..2^-20 off either; its half length is 1/2..4 radii.
void make_capsule(Builder& b) {
  Query& q = b.c.query;
  const double r = length(q.shape, 0);
  const double h = r * draw(1, 8) / 2.0;
  const V up = b.away * (1 / length(b.away)), flat = b.along * (1 / length(b.along));
  const double tilt = pow2(-draw(2, 20)) * (chance(2) ? 1 : -1);
  V axis;
  switch (draw(0, 3)) {
    case 0: axis = up * h; break;                      // upright
    case 1: axis = flat * h; break;                    // lying
    case 2: axis = (up + flat * tilt) * h; break;      // nearly upright
    default: axis = (flat + up * tilt) * h; break;     // nearly lying
  }
  if (dot(axis, up) > 0) q.start = q.start + up * dot(axis, up);  // the lower end where the sphere was
  q.shape = Capsule<double>{r, axis};
}

// An upright capsule moving sideways into a horizontal edge: a wedge whose edge runs along y at
// x = 0 (level, or tilted by 2^-4..2^-20), its faces back to x = -w, thin or blunt; the edge meets
// the cylinder at mid height, within it, or where cylinder and cap meet.
Builder cylinder_edge() {
  const auto [s, r] = draw_scale();
  const double h = r * draw(2, 8) / 2.0, len = s * 8, w = s * 4;
  const double slope = chance(2) ? 0 : (chance(2) ? 1 : -1) * pow2(-draw(4, 20));
  const double t = chance(2) ? w : w * pow2(-draw(1, 10));  // the wedge's half thickness at its back
  Builder b;
  b.away = {1, 0, 0};
  b.along = {0, 1, 0};
  const V e0{0, -len, -slope * len}, e1{0, len, slope * len};
  b.triangle(e0, e1, V{-w, 0, t});   // upper face, facing +x and up
  b.triangle(e1, e0, V{-w, 0, -t});  // lower face, facing +x and down
  Query& q = b.c.query;
  double zc = 0;  // the edge at mid height
  switch (draw(0, 2)) {
    case 1: zc = (chance(2) ? 1 : -1) * h * draw(1, 3) / 4.0; break;  // within the cylinder
    case 2: zc = (chance(2) ? 1 : -1) * h; break;                      // where cylinder meets cap
    default: break;
  }
  const V axis = chance(4) ? V{(chance(2) ? 1 : -1) * h * pow2(-draw(2, 20)), 0, h} : V{0, 0, h};
  q.shape = Capsule<double>{r, axis};
  const double gap = chance(2) ? 0 : s * draw(1, 8) / 4.0;
  q.start = {r + gap, s * draw(-8, 8) / 4.0, zc};
  const double dy = chance(2) ? 0 : (chance(2) ? s * draw(-8, 8) / 4.0 : s * pow2(-draw(6, 30)));
  q.displacement = {-s * draw(1, 16) / 4.0, dy, chance(4) ? -s * pow2(-draw(6, 30)) : 0};
  if (chance(3)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

// A capsule lying along a ledge's edge rolls over it: an upper floor z = 0 for x <= 0, its edge
// along y at x = 0, a riser down to a lower floor at -D; the axis along the edge or turned off it
// by 2^-2..2^-20 (in the floor or out of it), the capsule on the upper floor moving off it.
Builder ledge_roll() {
  const auto [s, r] = draw_scale();
  const double h = r * draw(1, 8) / 2.0, len = s * 8, drop = s * draw(1, 8) / 2.0;
  Builder b;
  b.away = {0, 0, 1};
  b.along = {0, 1, 0};
  b.triangle(V{-len, -len, 0}, V{0, -len, 0}, V{0, len, 0});  // upper floor
  b.triangle(V{-len, -len, 0}, V{0, len, 0}, V{-len, len, 0});
  b.triangle(V{0, -len, 0}, V{0, -len, -drop}, V{0, len, -drop});  // riser, facing +x
  b.triangle(V{0, -len, 0}, V{0, len, -drop}, V{0, len, 0});
  b.triangle(V{0, -len, -drop}, V{len, -len, -drop}, V{len, len, -drop});  // lower floor
  b.triangle(V{0, -len, -drop}, V{len, len, -drop}, V{0, len, -drop});
  Query& q = b.c.query;
  const double turn = (chance(2) ? 1 : -1) * h * pow2(-draw(2, 20));
  V axis{0, h, 0};  // along the edge, half the time
  switch (draw(0, 3)) {
    case 2: axis.x = turn; break;  // turned in the floor
    case 3: axis.z = turn; break;  // one end raised
    default: break;
  }
  q.shape = Capsule<double>{r, axis};
  const double x0 = -s * draw(0, 8) / 4.0;
  // Where the move ends: half the time with the axis just past the edge, within a radius of it
  // (the cylinder then rests on the edge line), else anywhere from over the floor to beyond it.
  const double x1 = chance(2) ? r * draw(1, 7) / 8.0 : s * draw(-4, 16) / 4.0;
  q.start = {x0, s * draw(-4, 4) / 4.0, r};
  q.displacement = {std::max(x1 - x0, s / 4), chance(2) ? 0 : s * draw(-4, 4) / 4.0,
                    chance(4) ? -s * pow2(-draw(6, 30)) : 0};
  if (!chance(3)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};  // mostly with gravity: it rolls over
  return b;
}

// The lower cap slides over a stair nosing: a lower tread z = 0 for x <= 0, a riser at x = 0 up
// to H facing the capsule, an upper tread z = H; an upright capsule before the riser whose lower
// end is at the nosing's height, a little above or a little below it, moving into the step.
Builder stair_nosing() {
  const auto [s, r] = draw_scale();
  const double h = r * draw(1, 8) / 2.0, len = s * 8, rise = s * draw(1, 8) / 4.0;
  Builder b;
  b.away = {-1, 0, 1};
  b.along = {0, 1, 0};
  b.triangle(V{-len, -len, 0}, V{0, -len, 0}, V{0, len, 0});  // lower tread
  b.triangle(V{-len, -len, 0}, V{0, len, 0}, V{-len, len, 0});
  b.triangle(V{0, len, 0}, V{0, -len, 0}, V{0, -len, rise});  // riser, facing -x
  b.triangle(V{0, len, 0}, V{0, -len, rise}, V{0, len, rise});
  b.triangle(V{0, -len, rise}, V{len, -len, rise}, V{len, len, rise});  // upper tread
  b.triangle(V{0, -len, rise}, V{len, len, rise}, V{0, len, rise});
  Query& q = b.c.query;
  double end = rise;  // the lower end's centre at the nosing's height
  switch (draw(0, 2)) {
    case 1: end += r * draw(1, 8) / 8.0; break;  // above: the cap slides over
    case 2: end -= r * draw(1, 8) / 8.0; break;  // below: the cap is caught
    default: break;
  }
  const V axis = chance(4) ? V{(chance(2) ? 1 : -1) * h * pow2(-draw(2, 20)), 0, h} : V{0, 0, h};
  q.shape = Capsule<double>{r, axis};
  const double gap = chance(2) ? 0 : s * draw(1, 4) / 8.0;
  q.start = {-r - gap, s * draw(-4, 4) / 4.0, std::max(end, r) + h};
  q.displacement = {s * draw(1, 16) / 4.0, chance(2) ? 0 : s * draw(-4, 4) / 8.0, chance(3) ? s * draw(0, 4) / 8.0 : 0};
  if (chance(2)) q.gravity = {0, 0, -s * draw(1, 4) / 4.0};
  return b;
}

Builder build(std::string_view name, std::string_view shape) {
  if (name == "cylinder_edge") return cylinder_edge();
  if (name == "ledge_roll") return ledge_roll();
  if (name == "stair_nosing") return stair_nosing();
  Builder b = name == "floor_touch"      ? floor_touch()
              : name == "plane_parallel" ? plane_parallel()
              : name == "edge_parallel"  ? edge_parallel()
              : name == "sliver"         ? sliver()
              : name == "corner_push"    ? corner_push()
                                         : random_soup();
  if (shape == "capsule") make_capsule(b);
  return b;
}

// A generator whose values come from `make` (RapidCheck draws, not shrunk by RapidCheck's own
// tree) and whose shrinks are slidecheck's (candidate_shrinks.hpp).
template <class Make>
rc::Gen<Candidate> with_candidate_shrinks(Make make) {
  const rc::Gen<Candidate> raw = rc::gen::noShrink(rc::gen::exec(make));
  return rc::Gen<Candidate>([raw](const rc::Random& random, int size) {
    return shrinkable_candidate(raw(random, size).value());
  });
}

}  // namespace

rc::Gen<Candidate> gen_construction(std::string_view name, Algorithm algorithm, Precision precision, bool rotated,
                                    std::string_view shape) {
  const std::vector<std::string_view> names = constructions_for(shape);
  if (names.empty()) throw std::invalid_argument("search generates no " + std::string(shape));
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw std::invalid_argument((is_construction(name) ? "the construction '" + std::string(name) + "' builds no " + std::string(shape)
                                                       : "unknown construction '" + std::string(name) + "'"));
  const std::string owned(name), body(shape);
  return with_candidate_shrinks([owned, body, algorithm, precision, rotated] {
    return finish(build(owned, body), owned, algorithm, precision, rotated);
  });
}

rc::Gen<Candidate> gen_candidate(Algorithm algorithm, Precision precision, bool rotated, std::string_view shape) {
  const std::vector<std::string_view> names = constructions_for(shape);
  if (names.empty()) throw std::invalid_argument("search generates no " + std::string(shape));
  const std::string body(shape);
  return with_candidate_shrinks([names, body, algorithm, precision, rotated] {
    const std::string name(names[static_cast<std::size_t>(draw(0, static_cast<int>(names.size()) - 1))]);
    return finish(build(name, body), name, algorithm, precision, rotated);
  });
}

}  // namespace slidecheck::verify
