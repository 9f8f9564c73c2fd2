// Reported single sweeps against the exact first contact (judge_sweeps.hpp).
#include <slidecheck/verify/judge/judge_sweeps.hpp>

#include <slidecheck/reference/detection/shape_sweep.hpp>
#include <slidecheck/verify/level_b/surd.hpp>

#include <string>

namespace slidecheck::verify {

namespace {

using Q = Rational;

Vec3<Q> to_q(const Vec3<double>& v) { return {to_rational(v.x), to_rational(v.y), to_rational(v.z)}; }

/// The exact first contact over the triangles whose boxes meet the sweep's, in the whole
/// mesh's numbering (the culled mesh keeps ascending order, so ties still go to the lowest).
struct ExactSweep {
  DetectionResult<Q> hit;
  std::vector<std::size_t> original_index;
  IndexedMesh<Q> mesh;
  Shape<Q> shape;
  Vec3<Q> start, displacement;
};

ExactSweep exact_sweep(const TriangleIndex& index, const formats::PathSweep& s) {
  ExactSweep e;
  const CulledMesh part = index.culled_mesh(exact::swept_box(s.start, s.displacement, extent(s.shape)));
  e.original_index = part.original_index;
  e.mesh = convert_mesh<Q>(part.sub, [](double x) { return to_rational(x); });
  e.shape = convert_shape<Q>(s.shape, [](double x) { return to_rational(x); });
  e.start = to_q(s.start);
  e.displacement = to_q(s.displacement);
  exact::SweepOptions options;
  options.cull_back_faces = false;
  e.hit = exact::sweep_shape_mesh(e.shape, e.start, e.displacement, e.mesh, options);
  if (e.hit.hit) e.hit.triangle = e.original_index.at(e.hit.triangle);
  return e;
}

/// The exact contact of the sweep with one triangle of the whole mesh (both faces).
DetectionResult<Q> exact_on(const TriangleIndex& index, const ExactSweep& e, std::size_t triangle) {
  IndexedMesh<Q> one;
  const Triangle<double> t = index.mesh().triangle(triangle);
  one.vertices = {to_q(t.p0), to_q(t.p1), to_q(t.p2)};
  one.triangles = {{0, 1, 2}};
  exact::SweepOptions options;
  options.cull_back_faces = false;
  return exact::sweep_shape_mesh(e.shape, e.start, e.displacement, one, options);
}

/// The sweep meets the triangle from behind: it starts strictly behind the plane of the
/// normal (p1 - p0) x (p2 - p0), or moves along that normal. Decided exactly.
bool meets_back(const TriangleIndex& index, const ExactSweep& e, std::size_t triangle) {
  const Triangle<double> t = index.mesh().triangle(triangle);
  const Vec3<Q> p0 = to_q(t.p0);
  const Vec3<Q> n = cross(Vec3<Q>(to_q(t.p1) - p0), Vec3<Q>(to_q(t.p2) - p0));
  return num::sign(dot(n, Vec3<Q>(e.start - p0))) < 0 || num::sign(dot(n, e.displacement)) > 0;
}

bool at_time_zero(const DetectionResult<Q>& r) { return r.hit && r.time.is_linear() && num::sign(r.time.c) == 0; }

template <IeeeBinary F>
void judge_one(const TriangleIndex& index, const formats::PathSweep& s, const StepLocation& at, std::size_t i,
               SweepJudgement& out) {
  const ExactSweep e = exact_sweep(index, s);
  const std::string name = "sweep " + std::to_string(i);
  auto decide = [&](std::string decision, std::string fo, std::string eo, bool agrees) {
    DecisionCheck d;
    d.step = "sweep";
    d.decision = std::move(decision);
    d.where = at;
    d.float_outcome = std::move(fo);
    d.exact_outcome = std::move(eo);
    d.agrees = agrees;
    out.decisions.push_back(std::move(d));
  };
  auto fail = [&](FailureClass kind, std::size_t triangle, std::string detail, bool back_face = false) {
    Failure f;
    f.kind = kind;
    f.where = at;
    f.triangle = triangle;
    f.has_triangle = true;
    f.back_face = back_face;
    f.detail = name + ": " + std::move(detail);
    out.failures.push_back(std::move(f));
  };
  const std::string fo = s.hit ? "hit" : "miss";
  if (at_time_zero(e.hit)) {
    decide("hit", fo, "start_contact", true);
    return;
  }
  const std::string eo = e.hit.hit ? "hit" : "miss";
  decide("hit", fo, eo, s.hit == e.hit.hit);
  if (s.hit && !e.hit.hit) {
    fail(FailureClass::spurious_hit, s.triangle,
         "reported a contact with triangle " + std::to_string(s.triangle) + " at time " + exact_text(s.time) +
             "; exactly the sweep touches nothing");
    return;
  }
  if (!s.hit && e.hit.hit) {
    fail(FailureClass::missed_hit, e.hit.triangle,
         "reported no contact; exactly the sweep touches triangle " + std::to_string(e.hit.triangle) + " (" +
             std::string(to_string(e.hit.feature)) + ") at time " +
             exact_text(round_surd<F>(verify::detail::time_surd(e.hit.time))),
         meets_back(index, e, e.hit.triangle));
    return;
  }
  if (!s.hit) return;
  out.values.push_back(surd_value_error<F>("sweep", "time", at, static_cast<F>(s.time), verify::detail::time_surd(e.hit.time)));
  if (s.triangle == e.hit.triangle) {
    decide("triangle", std::to_string(s.triangle), std::to_string(e.hit.triangle), true);
    return;
  }
  // Two triangles touched at exactly the same time (a seam, a crease): either is the answer.
  const DetectionResult<Q> own = exact_on(index, e, s.triangle);
  if (own.hit && compare(own.time, e.hit.time) == 0) {
    decide("triangle", std::to_string(s.triangle),
           std::to_string(e.hit.triangle) + " (tied exactly with " + std::to_string(s.triangle) + ")", true);
    return;
  }
  decide("triangle", std::to_string(s.triangle), std::to_string(e.hit.triangle), false);
  fail(FailureClass::wrong_triangle, s.triangle,
       "reported triangle " + std::to_string(s.triangle) + "; exactly the first contact is triangle " +
           std::to_string(e.hit.triangle) +
           (own.hit ? ", which it touches first" : std::string(", and the sweep never touches ") + std::to_string(s.triangle)));
}

}  // namespace

SweepJudgement judge_sweeps(const TriangleIndex& index, const std::vector<formats::PathSweep>& sweeps,
                            Precision precision, const std::vector<StepLocation>& where) {
  SweepJudgement out;
  for (std::size_t i = 0; i < sweeps.size(); ++i) {
    if (precision == Precision::single_float)
      judge_one<float>(index, sweeps[i], where.at(i), i, out);
    else
      judge_one<double>(index, sweeps[i], where.at(i), i, out);
  }
  return out;
}

}  // namespace slidecheck::verify
