// The shrinks of a candidate as a RapidCheck shrink tree (candidate_shrinks.hpp).
#include "search/candidate_shrinks.hpp"

#include "search/capsule_clearance.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <variant>
#include <vector>

namespace slidecheck::verify {

namespace {

// One shrink, described cheaply so that the Seq of shrinks can be made eagerly and the
// candidates built lazily (a map's case has hundreds of triangles and numbers).
struct ShrinkOp {
  enum Kind { drop_triangle, scale, translate, scale_move, set_number } kind;
  std::size_t index = 0;  // triangle, number, or axis (3: all axes)
  double value = 0;       // factor, amount or new value
  Vec3<double> offset;    // translate: the amount per axis
};

Vec3<double> rounded(const Vec3<double>& v, Precision p) {
  return {round_to(v.x, p), round_to(v.y, p), round_to(v.z, p)};
}

Candidate apply(const Candidate& c, const ShrinkOp& op) {
  const Precision p = c.scene.precision;
  switch (op.kind) {
    case ShrinkOp::drop_triangle: {
      std::vector<std::size_t> keep;
      for (std::size_t t = 0; t < c.scene.mesh.triangle_count(); ++t)
        if (t != op.index) keep.push_back(t);
      return with_triangles(c, keep);
    }
    case ShrinkOp::scale: {
      Candidate out = c;
      for (auto& v : out.scene.mesh.vertices) v = rounded(v * op.value, p);
      out.query.start = rounded(out.query.start * op.value, p);
      out.query.displacement = rounded(out.query.displacement * op.value, p);
      out.query.gravity = rounded(out.query.gravity * op.value, p);
      out.query.shape = map_lengths(out.query.shape, [&](double r) { return round_to(r * op.value, p); });
      return out;
    }
    case ShrinkOp::translate: {
      Candidate out = c;
      for (auto& v : out.scene.mesh.vertices) v = rounded(v - op.offset, p);
      out.query.start = rounded(out.query.start - op.offset, p);
      return out;
    }
    case ShrinkOp::scale_move: {
      Candidate out = c;
      if (op.index == 0)
        out.query.displacement = rounded(out.query.displacement * op.value, p);
      else
        out.query.gravity = rounded(out.query.gravity * op.value, p);
      return out;
    }
    case ShrinkOp::set_number:
      return with_number(c, op.index, op.value);
  }
  return c;
}

// Whether setting the body's length k to 0 leaves a capsule with a zero half axis: a sphere,
// which is not a smaller capsule but another shape.
bool zeroes_half_axis(const Candidate& c, std::size_t k) {
  Shape<double> shape = c.query.shape;
  set_length(shape, k, 0.0);
  return zero_half_axis(shape);
}

std::vector<ShrinkOp> shrink_ops(const Candidate& c) {
  std::vector<ShrinkOp> ops;
  for (std::size_t t = c.scene.mesh.triangle_count(); t-- > 0;)
    if (c.scene.mesh.triangle_count() > 1) ops.push_back({ShrinkOp::drop_triangle, t, 0, {}});

  const CandidateSize size = size_of(c);
  if (size.magnitude > 2) ops.push_back({ShrinkOp::scale, 0, 0.5, {}});
  if (size.magnitude > 0 && size.magnitude < 0.5) ops.push_back({ShrinkOp::scale, 0, 2.0, {}});

  // Toward the origin: the start rounded coarsely, all axes at once, then per axis.
  const Vec3<double>& s = c.query.start;
  auto coarse = [&](double x) {
    std::vector<double> out;
    for (int k = 1; k <= 3; ++k) out.push_back(round_to_bits(x, k));
    out.push_back(std::trunc(x));
    std::vector<double> useful;
    for (double t : out)
      if (t != 0 && std::fabs(x - t) < std::fabs(x) && std::find(useful.begin(), useful.end(), t) == useful.end())
        useful.push_back(t);
    return useful;
  };
  for (int k = 1; k <= 3; ++k) {
    const Vec3<double> t{round_to_bits(s.x, k), round_to_bits(s.y, k), round_to_bits(s.z, k)};
    if (t.x != 0 || t.y != 0 || t.z != 0) ops.push_back({ShrinkOp::translate, 3, 0, t});
  }
  for (std::size_t a = 0; a < 3; ++a)
    for (double t : coarse(s[a])) {
      Vec3<double> off{0, 0, 0};
      off[a] = t;
      ops.push_back({ShrinkOp::translate, a, 0, off});
    }

  // Shorter moves, but not below 2^-8 of the body's smallest radius (its lengths that must be
  // positive: a capsule's half axis may have zero components): halving forever would end in
  // subnormal moves, which are smaller but not simpler (setting a component to 0 is).
  const std::size_t nv = 3 * c.scene.mesh.vertices.size();
  double smallest = length(c.query.shape, 0);
  for (std::size_t i = 1; i < length_count(c.query.shape); ++i)
    if (is_radius_number(c, nv + 9 + i)) smallest = std::min(smallest, length(c.query.shape, i));
  const double shortest = std::ldexp(smallest, -8);
  auto longer_than_shortest = [&](const Vec3<double>& v) {
    return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}) > 2 * shortest;
  };
  if (longer_than_shortest(c.query.displacement)) ops.push_back({ShrinkOp::scale_move, 0, 0.5, {}});
  if (longer_than_shortest(c.query.gravity)) ops.push_back({ShrinkOp::scale_move, 1, 0.5, {}});

  // Per number: 0, the integer part, fewer significant bits (fewest first).
  std::vector<char> used(c.scene.mesh.vertices.size(), 0);
  for (const auto& t : c.scene.mesh.triangles)
    for (const std::uint32_t v : t) used[v] = 1;
  for (std::size_t i = 0; i < number_count(c); ++i) {
    if (i < 3 * used.size() && !used[i / 3]) continue;
    const double x = number(c, i);
    const bool radius = is_radius_number(c, i);
    std::vector<double> values;
    const bool last_axis = is_length_number(c, i) && zeroes_half_axis(c, i - nv - 9);
    if (!radius && !last_axis) values.push_back(0);
    if (std::fabs(x) >= 1) values.push_back(std::trunc(x));
    for (int k = 1; k < significant_bits(x); ++k) values.push_back(round_to_bits(x, k));
    std::vector<double> seen;
    for (double v : values) {
      v = round_to(v, c.scene.precision);
      if (v == x || (radius && !(v > 0)) || (last_axis && v == 0) || std::find(seen.begin(), seen.end(), v) != seen.end())
        continue;
      seen.push_back(v);
      ops.push_back({ShrinkOp::set_number, i, v, {}});
    }
  }
  return ops;
}

}  // namespace

rc::Seq<Candidate> candidate_shrinks(const Candidate& c) {
  auto shared = std::make_shared<const Candidate>(c);
  return rc::seq::map(rc::seq::fromContainer(shrink_ops(c)),
                      [shared](const ShrinkOp& op) { return apply(*shared, op); });
}

rc::Shrinkable<Candidate> shrinkable_candidate(Candidate c) {
  return rc::shrinkable::shrinkRecur(std::move(c), &candidate_shrinks);
}

void showValue(const Candidate& c, std::ostream& os) {
  auto vec = [](const Vec3<double>& v) {
    return "(" + exact_text(v.x) + ", " + exact_text(v.y) + ", " + exact_text(v.z) + ")";
  };
  os << "candidate (" << algorithm_name(c.query.algorithm) << ", " << precision_name(c.scene.precision) << "): "
     << size_of(c) << "\n  start " << vec(c.query.start) << " displacement " << vec(c.query.displacement)
     << " gravity " << vec(c.query.gravity);
  if (const auto* capsule = std::get_if<Capsule<double>>(&c.query.shape))
    os << " capsule radius " << exact_text(capsule->radius) << " half axis " << vec(capsule->half_axis) << '\n';
  else
    os << " radii " << vec(espace_radii(c.query.shape).radii) << '\n';
  for (std::size_t t = 0; t < c.scene.mesh.triangle_count(); ++t) {
    const Triangle<double> tri = c.scene.mesh.triangle(t);
    os << "  triangle " << t << ": " << vec(tri.p0) << " " << vec(tri.p1) << " " << vec(tri.p2) << '\n';
  }
}

}  // namespace slidecheck::verify
