// The ideal trajectory: run_slide in Certified, its decisions logged, its outputs rounded
// with proof (ideal_trajectory.hpp, docs/level-c.md).
#include <slidecheck/verify/ideal_trajectory.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>

namespace slidecheck::verify {
namespace {

/// Labels the session's next decisions with the last traced step, so an unproven decision
/// says where in the algorithm it was taken ("after <step> (pass p, iteration i, triangle k)").
struct WhereTracer {
  static constexpr bool enabled = true;
  certified::Session* session;

  template <class Event>
  void operator()(const Event& e) const {
    char buf[160];
    int pass = -1, iteration = -1;
    long triangle = -1;
    if constexpr (requires { e.pass; e.iteration; }) {
      pass = e.pass;
      iteration = e.iteration;
    }
    if constexpr (requires { e.triangle; }) triangle = static_cast<long>(e.triangle);
    std::snprintf(buf, sizeof buf, "after %.*s (pass %d, iteration %d, triangle %ld)",
                  static_cast<int>(Event::name.size()), Event::name.data(), pass, iteration, triangle);
    session->set_where(buf);
  }
};

IdealPoint round_point(const Vec3<Certified>& p, int bits) {
  IdealPoint out;
  auto one = [&](const Certified& x, double& rounded, double& lo, double& hi) {
    bool proven = true;
    rounded = certified::round_to_double(x, proven);
    out.rounding_proven = out.rounding_proven && proven;
    std::tie(lo, hi) = certified::enclosure(x, bits);
  };
  one(p.x, out.rounded.x, out.lo.x, out.hi.x);
  one(p.y, out.rounded.y, out.lo.y, out.hi.y);
  one(p.z, out.rounded.z, out.lo.z, out.hi.z);
  return out;
}

Vec3<double> rounded(const Vec3<Certified>& p, bool& proven) {
  bool px = true, py = true, pz = true;
  Vec3<double> out(certified::round_to_double(p.x, px), certified::round_to_double(p.y, py),
                   certified::round_to_double(p.z, pz));
  proven = proven && px && py && pz;
  return out;
}

}  // namespace

bool IdealTrajectory::fully_proven() const {
  if (!error.empty() || decisions.undecided() != 0 || !final_position.rounding_proven) return false;
  for (const IdealPass& p : passes)
    for (const IdealPoint& q : p.path)
      if (!q.rounding_proven) return false;
  return true;
}

IdealTrajectory ideal_trajectory(const AlgorithmTolerances& tol, const SlideInput<double>& in,
                                 const IndexedMesh<double>& mesh, const IdealOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  IdealTrajectory out;
  certified::Session session(options.numbers);
  session.set_where("at the start (before the first traced step)");
  const auto to_c = [](double v) { return Certified(v); };
  try {
    SlideInput<Certified> cin{convert_vec<Certified>(in.start, to_c), convert_vec<Certified>(in.velocity, to_c),
                              {convert_vec<Certified>(in.radii.radii, to_c)}, convert_vec<Certified>(in.gravity, to_c)};
    const IndexedMesh<Certified> cmesh = convert_mesh<Certified>(mesh, to_c);
    const int bits = session.options().max_precision_bits;
    for (int frame = 0; frame < std::max(1, options.frames); ++frame) {
      if (frame > 0) session.set_where("frame " + std::to_string(frame) + ", at its start (before its first traced step)");
      const SlideResult<Certified> r = run_slide(tol, cin, cmesh, WhereTracer{&session});
      session.set_where(options.frames > 1 ? "rounding the outputs of frame " + std::to_string(frame)
                                           : std::string("rounding the outputs"));
      for (const SlidePass<Certified>& p : r.passes) {
        IdealPass ip;
        ip.iterations = p.iterations;
        ip.stop = p.stop;
        for (const Vec3<Certified>& q : p.path) ip.path.push_back(round_point(q, bits));
        for (const SlidingPlaneHit<Certified>& h : p.planes) {
          bool proven = true;
          ip.planes.push_back(
              {h.triangle, h.feature, h.feature_index, rounded(h.origin, proven), rounded(h.normal, proven)});
        }
        out.passes.push_back(std::move(ip));
      }
      out.frame_ends.push_back(round_point(r.final_position, bits));
      out.iterations += r.iterations();
      cin.start = r.final_position;  // the next frame starts at this frame's exact end
    }
    out.final_position = out.frame_ends.back();
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  out.decisions = session.summary();
  out.escalated = session.decisions();
  for (const certified::Decision& d : out.escalated)
    if (!d.proven()) out.unproven.push_back(d);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace slidecheck::verify
