// RapidCheck generators of candidates near degenerate configurations (search_generators.hpp).
#include "search/search_generators.hpp"

#include "search/candidate_shrinks.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

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

// A construction under way: exact (or double) geometry before rounding.
struct Builder {
  Candidate c;
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
}

// Rounds the construction once to the precision (rotated first when `rotated`), maybe moves it
// far from the origin, and moves a few of its numbers by a few ULPs.
Candidate finish(Builder b, std::string_view name, Algorithm algorithm, Precision p, bool rotated) {
  Candidate& c = b.c;
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

Builder build(std::string_view name) {
  if (name == "floor_touch") return floor_touch();
  if (name == "plane_parallel") return plane_parallel();
  if (name == "edge_parallel") return edge_parallel();
  if (name == "sliver") return sliver();
  if (name == "corner_push") return corner_push();
  return random_soup();
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

rc::Gen<Candidate> gen_construction(std::string_view name, Algorithm algorithm, Precision precision, bool rotated) {
  if (!is_construction(name)) throw std::invalid_argument("unknown construction '" + std::string(name) + "'");
  const std::string owned(name);
  return with_candidate_shrinks(
      [owned, algorithm, precision, rotated] { return finish(build(owned), owned, algorithm, precision, rotated); });
}

rc::Gen<Candidate> gen_candidate(Algorithm algorithm, Precision precision, bool rotated) {
  return with_candidate_shrinks([algorithm, precision, rotated] {
    const std::string name(construction_names[draw(0, std::size(construction_names) - 1)]);
    return finish(build(name), name, algorithm, precision, rotated);
  });
}

}  // namespace slidecheck::verify
