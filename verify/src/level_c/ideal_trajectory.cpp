// The ideal trajectory: run_slide in Certified, its decisions logged, its outputs rounded
// with proof (ideal_trajectory.hpp, docs/level-c.md).
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>

#include "level_c/cut_ties.hpp"
#include "level_c/exact_adjudication.hpp"
#include "level_c/node_cache.hpp"

#include <slidecheck/reference/geometry/ellipsoid_space.hpp>

#include <mpfr.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>

namespace slidecheck::verify {
namespace {

IdealEnclosure enclose(const Certified& x) {
  try {
    const auto [lo, hi] = certified::enclosure(x, ideal_quantity_bits);
    return {lo, hi};
  } catch (const std::exception&) {  // unbounded (a division by an exact zero upstream)
    constexpr double inf = std::numeric_limits<double>::infinity();
    return {-inf, inf};
  }
}

Certified near_start(const Certified& x, int terms, int bits, double& gap);

/// A value that is already a cut (near_start's sum of leaves), or a leaf: kept as it is, so that
/// a value cut once keeps its node (and equal cuts stay the same node) at later iteration starts.
bool is_cut(const certified::Node& n, int depth = 0) {
  if (n.op == certified::Op::leaf) return true;
  return depth < 3 && n.op == certified::Op::add && n.a && n.b && is_cut(*n.a, depth + 1) && is_cut(*n.b, depth + 1);
}

/// An iteration cut replaces only a value whose DAG holds at least this many distinct square roots:
/// the nested ones that make later ties cost (docs/level-c.md, "Iteration cuts"). A shallower value
/// is kept exact, and with it the ties a slide makes from it: a sphere started in contact and sent
/// exactly along the face it touches stays exactly parallel to it (cut, it meets the face at t = 0
/// and fauerby stops at its recursion cap where the exact run slides on).
constexpr int cut_min_square_roots = 6;

/// Thrown by the sink to stop a frame's first attempt (IdealOptions::iteration_cuts).
struct RunFrameWithCuts {};
/// Thrown by the sink to stop a run with cuts at a decision near a tie over a cut value
/// (IdealOptions::cut_tie_bits): the frame is run again with fewer cuts.
struct RunFrameWithFewerCuts {};

/// What the sink watches in a frame's first attempt, and cuts in its second.
struct FrameEscalation {
  bool watching = false;  ///< first attempt: stop when a trigger fires
  bool deep = false;      ///< several frames: the size and time triggers too
  certified::Session::Mark at;  ///< the session at the frame's start
  std::size_t seen = 0;         ///< logged decisions already looked at
  int sqrt_limit = 0;
  double seconds = 0;
  std::chrono::steady_clock::time_point started;
  bool cutting = false;  ///< second attempt: iteration starts are cut
  int terms = 3, bits = 1024;
  double gap = 0;        ///< grows to a bound of every cut's distance to what it replaced (this attempt)
  int calls = 0;         ///< the attempt's iteration starts offered so far (each a cut call)
  int exact_through = -1;  ///< cut calls up to this one are left exact (ties after a cut)
  certified::detail::CutTieWatch* ties = nullptr;  ///< the attempt's watch of decisions near a tie
};

/// What level C needs of each collision query of the ideal run (IdealQuery): detection traces
/// each triangle's contact before the query's own event, so contacts wait in `pending`.
struct QueryCapture {
  std::vector<IdealQuery>* queries = nullptr;
  std::vector<std::pair<std::size_t, Certified>> pending;
  std::map<int, int> stop_iteration;  ///< by joined pass
  int pass_offset = 0;                ///< passes of the frames before this one
};

/// Labels the session's next decisions with the last traced step, so an unproven decision
/// says where in the algorithm it was taken ("after <step> (pass p, iteration i, triangle k)"),
/// and captures the collision queries' compared quantities.
class WhereSink final : public IdealTraceSink {
 public:
  WhereSink(certified::Session* session, QueryCapture* capture, FrameEscalation* escalation)
      : session_(session), capture_(capture), escalation_(escalation) {}

  void step(std::string_view name, int pass, int iteration, long triangle) override {
    char buf[160];
    std::snprintf(buf, sizeof buf, "after %.*s (pass %d, iteration %d, triangle %ld)", static_cast<int>(name.size()),
                  name.data(), pass, iteration, triangle);
    session_->set_where(buf);
    if (escalation_->watching) watch();
    if (escalation_->ties && escalation_->ties->flagged() >= 0) throw RunFrameWithFewerCuts{};
  }
  void cut(int pass, int iteration, Vec3<Certified>& p) override {
    FrameEscalation& e = *escalation_;
    if (!e.cutting || (pass == 0 && iteration == 0)) return;  // a frame's first start is cut already or exact
    // Numbered in the order offered: a run again takes the same steps up to the decision that made
    // it run again (every decision before it was trusted), so the numbers name the same values.
    const int call = e.calls++;
    if (call <= e.exact_through) return;
    const auto one = [&](const Certified& x) {
      if (is_cut(x.node()) || certified::detail::count_dag(x.node()).sqrts < cut_min_square_roots) return x;
      double gap = 0;
      Certified c = near_start(x, e.terms, e.bits, gap);
      // The double filter's decisions over a cut value hold for every value in its double enclosure
      // (docs/level-c.md): a cut whose enclosure does not hold the value it replaces (a point, a
      // cut that is one double) is not made.
      if (&c.node() == &x.node()) return x;
      const auto [lo, hi] = certified::enclosure(x, e.bits);
      if (!(c.lo() <= lo && hi <= c.hi() && c.lo() < c.hi())) return x;
      e.gap = std::max(e.gap, gap);
      if (e.ties) e.ties->add_cut(c, call);
      return c;
    };
    p = Vec3<Certified>(one(p.x), one(p.y), one(p.z));
  }
  void ranked(std::size_t triangle, const Certified& quantity) override {
    capture_->pending.emplace_back(triangle, quantity);
  }
  void query(int pass, int iteration, bool hit, std::size_t triangle, const Certified& time) override {
    IdealQuery q;
    q.pass = pass + capture_->pass_offset;
    q.iteration = iteration;
    q.hit = hit;
    q.triangle = triangle;
    if (hit) q.time = enclose(time);
    for (const auto& [t, v] : capture_->pending) q.candidates.emplace_back(t, enclose(v));
    capture_->pending.clear();
    capture_->queries->push_back(std::move(q));
  }
  void stop(int pass, int iteration) override { capture_->stop_iteration[pass + capture_->pass_offset] = iteration; }

 private:
  /// The first attempt's triggers: a decision left open; with several frames also, when set, a
  /// decision past the filter of sqrt_limit square roots or more, or the frame's time.
  void watch() {
    FrameEscalation& e = *escalation_;
    if (session_->summary().undecided() > e.at.summary.undecided()) throw RunFrameWithCuts{};
    if (!e.deep) return;
    if (e.sqrt_limit > 0) {
      const std::vector<certified::Decision>& log = session_->decisions();
      for (; e.seen < log.size(); ++e.seen)
        if (log[e.seen].sqrt_nodes >= e.sqrt_limit) throw RunFrameWithCuts{};
    }
    if (e.seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - e.started).count() > e.seconds)
      throw RunFrameWithCuts{};
  }

  certified::Session* session_;
  QueryCapture* capture_;
  FrameEscalation* escalation_;
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

/// A continuous frame's start near the exact end `x` of the frame before (IdealOptions::
/// frame_start_doubles): the sum of the first `terms` doubles of the expansion of the midpoint
/// of x's MPFR enclosure at `bits` (each the nearest double to what the ones before leave), so a
/// DAG of at most 2 terms - 1 additions of leaves, with no square root. `gap` grows to a bound
/// of |sum - x|: x lies in [lo, hi], so |sum - x| <= max(hi - sum, sum - lo), computed from the
/// exact sum and rounded up. x itself when it is a leaf, or when its enclosure is unbounded (a
/// division by an exact zero upstream: the run is not defined past it anyway).
Certified near_start(const Certified& x, int terms, int bits, double& gap) {
  if (x.node().op == certified::Op::leaf) return x;
  try {
    certified::enclosure(x, bits);  // fills x's MPFR enclosure at `bits` at least
  } catch (const std::exception&) {
    return x;
  }
  const certified::NodeCache& c = *x.node().cache;
  if (!mpfr_number_p(c.lo) || !mpfr_number_p(c.hi)) return x;
  // Every double is a multiple of 2^-1074 below 2^1024: 2,200 bits hold any sum of a few of them
  // and any difference of it with an enclosure end of up to 1024 bits within that range exactly.
  constexpr mpfr_prec_t wide = 2200;
  mpfr_t rest, sum, d;
  mpfr_inits2(wide, rest, sum, d, static_cast<mpfr_ptr>(nullptr));
  mpfr_add(rest, c.lo, c.hi, MPFR_RNDN);
  mpfr_div_2ui(rest, rest, 1, MPFR_RNDN);
  mpfr_set_zero(sum, 1);
  Certified out;
  bool first = true;
  for (int i = 0; i < terms && !mpfr_zero_p(rest); ++i) {
    const double term = mpfr_get_d(rest, MPFR_RNDN);
    if (term == 0 || !std::isfinite(term)) break;
    mpfr_sub_d(rest, rest, term, MPFR_RNDN);
    mpfr_add_d(sum, sum, term, MPFR_RNDN);
    out = first ? Certified(term) : out + Certified(term);
    first = false;
  }
  mpfr_sub(d, c.hi, sum, MPFR_RNDU);
  double bound = mpfr_get_d(d, MPFR_RNDU);
  mpfr_sub(d, sum, c.lo, MPFR_RNDU);
  bound = std::max(bound, mpfr_get_d(d, MPFR_RNDU));
  mpfr_clears(rest, sum, d, static_cast<mpfr_ptr>(nullptr));
  gap = std::max(gap, bound);
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
  certified::Options numbers = options.numbers;
  if (options.cut_sqrt_nodes > 0) numbers.count_every_dag = true;  // the size trigger reads the records
  certified::Session session(numbers);
  session.set_where("at the start (before the first traced step)");
  const auto to_c = [](double v) { return Certified(v); };
  out.relative_to_start = options.relative_to_start && translation_invariant(tol.algorithm());
  const int frames = std::max(1, options.frames);
  if (!options.frame_starts.empty() && options.frame_starts.size() != static_cast<std::size_t>(frames)) {
    out.error = "anchored frames: " + std::to_string(options.frame_starts.size()) + " frame starts for " +
                std::to_string(frames) + " frames";
    return out;
  }
  out.anchored_frames = !options.frame_starts.empty();
  try {
    SlideInput<Certified> cin{convert_vec<Certified>(in.start, to_c), convert_vec<Certified>(in.velocity, to_c),
                              {convert_vec<Certified>(in.radii.radii, to_c)}, convert_vec<Certified>(in.gravity, to_c)};
    // A capsule runs as itself (its radius is `radii` on every axis: slide_input_of).
    if (in.capsule) cin.capsule = in.capsule->converted<Certified>(to_c);
    IndexedMesh<Certified> cmesh = convert_mesh<Certified>(mesh, to_c);
    // Relative to the start: vertices v - start (exact), start 0; every frame keeps this origin.
    // Outputs go back by + start (R3) and plane origins by + start / radii (eSpace); times,
    // ranked quantities and normals are differences, unchanged.
    const Vec3<Certified> origin = cin.start;
    Vec3<Certified> espace_origin;
    if (out.relative_to_start) {
      for (Vec3<Certified>& v : cmesh.vertices) v = v - origin;
      cin.start = Vec3<Certified>();
      espace_origin = to_espace(origin, cin.radii);
    }
    const auto world = [&](const Vec3<Certified>& p) { return out.relative_to_start ? p + origin : p; };
    const auto world_espace = [&](const Vec3<Certified>& p) { return out.relative_to_start ? p + espace_origin : p; };
    const int bits = session.options().max_precision_bits;
    QueryCapture capture;
    capture.queries = &out.queries;
    FrameEscalation escalation;
    escalation.terms = std::max(3, options.frame_start_doubles);
    escalation.bits = bits;
    escalation.sqrt_limit = options.cut_sqrt_nodes;
    escalation.seconds = options.cut_after_seconds;
    escalation.deep = frames > 1;
    for (int frame = 0; frame < frames; ++frame) {
      const std::string frame_start_where =
          frame > 0 ? "frame " + std::to_string(frame) + ", at its start (before its first traced step)"
                    : session.where();
      session.set_where(frame_start_where);
      capture.pass_offset = static_cast<int>(out.passes.size());
      WhereSink sink(&session, &capture, &escalation);
      SlideResult<Certified> r;
      if (!options.iteration_cuts) {
        r = run_slide(tol, cin, cmesh, IdealTracer{&sink});
      } else {
        // Iteration cuts, an escalation: the frame as it runs, stopped at the first trigger and
        // then run again from its start with its iteration starts cut, the first attempt's
        // decisions and collision queries forgotten (docs/level-c.md, "Iteration cuts").
        escalation.watching = true;
        escalation.cutting = false;
        escalation.at = session.mark();
        escalation.seen = escalation.at.logged;
        escalation.started = std::chrono::steady_clock::now();
        const std::size_t queries_before = out.queries.size();
        bool again = false;
        try {
          r = run_slide(tol, cin, cmesh, IdealTracer{&sink});
          // A decision left open after the frame's last traced step triggers it too.
          again = session.summary().undecided() > escalation.at.summary.undecided();
        } catch (const RunFrameWithCuts&) {
          again = true;
        }
        escalation.watching = false;
        // Each run with cuts that meets a decision near a tie over a cut value (cut_ties.hpp) is
        // stopped and the frame run again with every cut up to the newest that decision reads left
        // exact; after cut_tie_reruns such runs, without cuts.
        int exact_through = -1;
        for (int attempt = 0; again; ++attempt) {
          session.rewind(escalation.at);
          session.set_where(frame_start_where);
          out.queries.resize(queries_before);
          capture.pending.clear();
          capture.stop_iteration.erase(capture.stop_iteration.lower_bound(capture.pass_offset),
                                       capture.stop_iteration.end());
          const bool uncut = attempt >= std::max(0, options.cut_tie_reruns) + 1;
          std::optional<certified::detail::CutTieWatch> ties;  // installed for this attempt
          if (options.cut_ties_exact && !uncut) ties.emplace(options.cut_tie_bits);
          escalation.cutting = !uncut;
          escalation.calls = 0;
          escalation.exact_through = exact_through;
          escalation.gap = 0;
          escalation.ties = ties ? &*ties : nullptr;
          try {
            r = run_slide(tol, cin, cmesh, IdealTracer{&sink});
            again = ties && ties->flagged() >= 0;  // flagged after the frame's last traced step
          } catch (const RunFrameWithFewerCuts&) {
            again = true;
          }
          escalation.cutting = false;
          escalation.ties = nullptr;
          if (again) {
            exact_through = std::max(exact_through + 1, ties->flagged());
            ++out.cut_tie_reruns;
          } else if (!uncut) {
            ++out.cut_frames;
            out.iteration_cut_gap = std::max(out.iteration_cut_gap, escalation.gap);
          } else {
            ++out.cut_tie_uncut_frames;
          }
        }
      }
      session.set_where(options.frames > 1 ? "rounding the outputs of frame " + std::to_string(frame)
                                           : std::string("rounding the outputs"));
      for (const SlidePass<Certified>& p : r.passes) {
        IdealPass ip;
        ip.iterations = p.iterations;
        ip.stop = p.stop;
        const auto at = capture.stop_iteration.find(static_cast<int>(out.passes.size()));
        ip.stop_iteration = at != capture.stop_iteration.end() ? at->second : std::max(0, p.iterations - 1);
        for (const Vec3<Certified>& q : p.path) ip.path.push_back(round_point(world(q), bits));
        for (const SlidingPlaneHit<Certified>& h : p.planes) {
          bool proven = true;
          ip.planes.push_back({h.triangle, h.feature, h.feature_index, rounded(world_espace(h.origin), proven),
                               rounded(h.normal, proven)});
        }
        out.passes.push_back(std::move(ip));
      }
      out.frame_ends.push_back(round_point(world(r.final_position), bits));
      out.iterations += r.iterations();
      if (out.anchored_frames && static_cast<std::size_t>(frame + 1) < options.frame_starts.size()) {
        // Anchored: the next frame starts where the run's did (exact doubles; relative to the
        // first start when the run is).
        cin.start = convert_vec<Certified>(options.frame_starts[static_cast<std::size_t>(frame) + 1], to_c);
        if (out.relative_to_start) cin.start = cin.start - origin;
      } else if (options.frame_start_doubles > 0 && frame + 1 < frames) {
        // The next frame starts near this frame's exact end, cut from the DAG of every frame so far.
        out.frame_start_doubles = options.frame_start_doubles;
        const int terms = options.frame_start_doubles;
        cin.start = Vec3<Certified>(near_start(r.final_position.x, terms, bits, out.frame_start_gap),
                                    near_start(r.final_position.y, terms, bits, out.frame_start_gap),
                                    near_start(r.final_position.z, terms, bits, out.frame_start_gap));
      } else {
        cin.start = r.final_position;  // the next frame starts at this frame's exact end
      }
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
