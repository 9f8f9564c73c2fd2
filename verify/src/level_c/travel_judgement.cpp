// lost_motion, stuck and jitter: a run's travel against the ideal run's (travel_judgement.hpp).
#include <slidecheck/verify/level_c/travel_judgement.hpp>

#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/level_c/grid_allowance.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <variant>

namespace slidecheck::verify {

IdealSummary summarize_ideal(const IdealTrajectory& ideal) {
  IdealSummary s;
  s.fully_proven = ideal.fully_proven();
  s.unproven = static_cast<int>(ideal.decisions.undecided());
  s.error = ideal.error;
  s.final_position = ideal.final_position.rounded;
  s.iterations = ideal.iterations;
  for (const IdealPass& p : ideal.passes) s.stop_reasons.emplace_back(to_string(p.stop));
  using certified::Method;
  const certified::Summary& counts = ideal.decisions;
  s.decisions = {.filter = counts.count(Method::filter),
                 .escalation = counts.count(Method::escalation),
                 .rational = counts.count(Method::rational),
                 .field = counts.count(Method::field),
                 .identity = counts.count(Method::identity),
                 .core = counts.count(Method::core),
                 .undecided = counts.count(Method::undecided),
                 .ties = counts.ties};
  s.frame_start_gap = ideal.frame_start_gap;
  s.iteration_cut_gap = ideal.iteration_cut_gap;
  s.cut_frames = ideal.cut_frames;
  return s;
}

std::vector<Vec3<double>> anchored_frame_starts(const Vec3<double>& start, const std::vector<Vec3<double>>& frame_ends) {
  if (frame_ends.size() < 2) return {};
  std::vector<Vec3<double>> out{start};
  for (std::size_t k = 0; k + 1 < frame_ends.size(); ++k) {
    const Vec3<double>& e = frame_ends[k];
    if (!std::isfinite(e.x) || !std::isfinite(e.y) || !std::isfinite(e.z)) return {};
    out.push_back(e);
  }
  return out;
}

namespace {

/// The distance from `ideal_end` to the nearest position of the run's precision clear of the mesh
/// (grid_allowance.hpp), or 0 with the allowance off.
/// `wanted`: the distance that would absorb the shortfall (grid_allowance searches that far).
double allowance_at(const QueryRecord& r, const Vec3<double>& ideal_end, const IndexedMesh<double>& exact_mesh,
                    const LevelCOptions& options, double wanted) {
  if (!options.grid_allowance) return 0;
  if (const auto* capsule = std::get_if<Capsule<double>>(&r.query.shape))
    return r.precision == Precision::single_float ? grid_allowance<float>(ideal_end, *capsule, exact_mesh, wanted)
                                                  : grid_allowance<double>(ideal_end, *capsule, exact_mesh, wanted);
  return r.precision == Precision::single_float
             ? grid_allowance<float>(ideal_end, espace_radii(r.query.shape).radii, exact_mesh, wanted)
             : grid_allowance<double>(ideal_end, espace_radii(r.query.shape).radii, exact_mesh, wanted);
}

/// Whether the run's body at `p` overlaps no triangle of `mesh` (touching is clear) and its centre
/// reaches `p` from `from` without crossing one: a position the grid allowance counts as clear
/// near `from` (grid_allowance.hpp). Exact (level A's tests).
bool clear_near(const QueryRecord& r, const Vec3<double>& from, const Vec3<double>& p, const IndexedMesh<double>& mesh) {
  const Capsule<double>* capsule = std::get_if<Capsule<double>>(&r.query.shape);
  const Vec3<double> radii = capsule ? Vec3<double>{} : espace_radii(r.query.shape).radii;
  const Vec3<double> widths = capsule ? capsule->extent() : radii;
  constexpr double inf = std::numeric_limits<double>::infinity();
  Vec3<double> lo, hi;  // the triangles that can matter: those whose box meets this one
  for (int k = 0; k < 3; ++k) {
    lo[k] = std::nextafter(std::min(from[k], p[k]) - std::fabs(widths[k]), -inf);
    hi[k] = std::nextafter(std::max(from[k], p[k]) + std::fabs(widths[k]), inf);
  }
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<double> t = mesh.triangle(i);
    bool apart = false;
    for (int k = 0; k < 3 && !apart; ++k)
      apart = std::max({t.p0[k], t.p1[k], t.p2[k]}) < lo[k] || std::min({t.p0[k], t.p1[k], t.p2[k]}) > hi[k];
    if (apart) continue;
    if (segment_tunnels(from, p, t) ||
        (capsule ? position_penetrates(p, *capsule, t) : position_penetrates(p, radii, t)))
      return false;
  }
  return true;
}

/// What the anchored ideal frames allow a continuous run of several frames (frame_end_allowance).
struct FrameEndAllowance {
  /// The sum over the frames of the allowance at each ideal frame's end (0: not allowed).
  double sum = 0;
  /// Every frame of the run ended clear of the mesh and no further from its ideal frame's end than
  /// that frame's allowance plus the fraction of one frame's move: at the position of its
  /// precision nearest that end that is clear of the mesh, up to the fraction.
  bool tracks_grid = false;
};

/// The grid allowance of a continuous run of several frames, frame by frame. Between frames the
/// run's state is a position of its precision: every frame end is rounded to the grid, and the
/// next frame starts from that rounding, so the run can lose up to one frame end's rounding per
/// frame, where the continuous judgement allowed the grid once, at the final end. The rounding
/// frame k cannot avoid is the allowance at the end of the ideal frame from the run's own start of
/// that frame (the anchored ideal frame: no code in that precision ends nearer it); `sum` is
/// their sum. Found on robust's 8-frame pushes over the thin wedge where a frame's move is 3.2
/// float ulps (scale 0.1, 10^6 from the origin) or 20.48 (scale 0.01, 10^4): every frame ends at
/// the nearest float, 0.2-0.48 ulps short, the anchored judgement finds every frame within the
/// grid, and the continuous one charged lost_motion for 3 frames and not for 4 to 6, as the final
/// end happened to fall near a float or not (corpora/regressions/level-c-frame-end-rounding).
/// Only a run whose every frame is within the grid of its own ideal frame (falls short of it by
/// no more than the fraction of one frame's move plus that frame's allowance, as anchored frames
/// are judged) is allowed the sum: a frame that loses motion on its own is the algorithm's, and
/// in a corner a run held short of it could otherwise be excused by the corner's allowance
/// counted once per frame. `tracks_grid` says more: every frame ended clear, where the exact
/// controller from the run's own start, rounded to the nearest clear position, ends (within the
/// fraction; a run that overlaps the mesh can end nearer, and is not that controller);
/// the run is then that controller, and the exact run's further response to those roundings (a
/// tie that sub-ulp gravity breaks, a slide off an edge whose contact angle a frame start an ulp
/// back changes) is the precision's (docs/level-c.md, "The grid allowance";
/// corpora/regressions/level-c-grid-tracking-frames). Nothing for one frame, without
/// `anchored_run`, when the anchored ideal run is not proven and defined, or when a frame is not
/// within its grid (the final end's allowance then stands alone).
FrameEndAllowance frame_end_allowance(const QueryRecord& r, const std::vector<Vec3<double>>& frame_ends,
                                      const IndexedMesh<double>& exact_mesh, const LevelCOptions& options,
                                      double wanted, const AnchoredIdealRun& anchored_run) {
  if (!anchored_run) return {};
  const std::vector<Vec3<double>> starts = anchored_frame_starts(r.query.start, frame_ends);
  if (starts.empty()) return {};
  const IdealTrajectory anchored = anchored_run(starts);
  if (!anchored.fully_proven() || anchored.frame_ends.size() != frame_ends.size() ||
      std::any_of(anchored.passes.begin(), anchored.passes.end(),
                  [](const IdealPass& p) { return p.stop == StopReason::undefined_operation; }))
    return {};
  const double per_frame = options.lost_motion_fraction * (length(r.query.displacement) + length(r.query.gravity));
  FrameEndAllowance out{.sum = 0, .tracks_grid = true};
  for (std::size_t k = 0; k < frame_ends.size(); ++k) {
    const Vec3<double>& ideal_end = anchored.frame_ends[k].rounded;
    const double apart = length(frame_ends[k] - ideal_end);
    const double allowance = allowance_at(r, ideal_end, exact_mesh, options, wanted);
    if (length(ideal_end - starts[k]) - length(frame_ends[k] - starts[k]) > per_frame + allowance) return {};
    if (out.tracks_grid && !(apart <= per_frame + allowance && clear_near(r, ideal_end, frame_ends[k], exact_mesh)))
      out.tracks_grid = false;
    out.sum += allowance;
  }
  return out;
}

/// Anchored frames (judge_travel): each frame against the ideal frame from the run's own start.
void judge_anchored(QueryRecord& r, IdealSummary& s, const IdealTrajectory& ideal, const IndexedMesh<double>& exact_mesh,
                    const std::vector<Vec3<double>>& frame_ends, const LevelCOptions& options, bool ideal_defined,
                    const StepLocation& where, const std::vector<StepLocation>* frame_wheres) {
  const Query& q = r.query;
  const std::size_t n = frame_ends.size();
  const std::vector<Vec3<double>> starts = anchored_frame_starts(q.start, frame_ends);
  const double per_frame = length(q.displacement) + length(q.gravity);
  const double fraction = options.lost_motion_fraction * per_frame, rest = options.jitter_fraction * per_frame;
  s.anchored_frames = true;
  s.float_travel = s.ideal_travel = 0;
  for (std::size_t k = 0; k < n; ++k) {
    s.float_travel += length(frame_ends[k] - starts[k]);
    s.ideal_travel += length(ideal.frame_ends[k].rounded - starts[k]);
  }
  if (!ideal.error.empty() || !ideal_defined || !std::isfinite(s.float_travel)) return;
  const auto at = [&](std::size_t k) { return frame_wheres && k < frame_wheres->size() ? (*frame_wheres)[k] : where; };
  const std::string precision(precision_name(r.precision));
  bool motion_failed = false, jitter_failed = false;
  for (std::size_t k = 0; k < n && !(motion_failed && jitter_failed); ++k) {
    const Vec3<double>& ideal_end = ideal.frame_ends[k].rounded;
    const double run_move = length(frame_ends[k] - starts[k]), ideal_move = length(ideal_end - starts[k]);
    const std::string frame = "frame " + std::to_string(k) + ": ";
    if (!motion_failed && ideal_move - run_move > fraction) {
      const double allowance = allowance_at(r, ideal_end, exact_mesh, options, ideal_move - run_move - fraction);
      if (options.grid_allowance) s.grid_allowance = allowance;
      if (ideal_move - run_move > fraction + allowance) {
        Failure f;
        const bool stuck = run_move <= options.stuck_fraction * ideal_move;
        f.kind = stuck ? FailureClass::stuck : FailureClass::lost_motion;
        f.where = at(k);
        f.detail = frame + (stuck ? "the float run barely moves" : "the float run travels less") +
                   " from its own start: " + exact_text(run_move) + " in " + precision + ", " + exact_text(ideal_move) +
                   " ideal (requested move " + exact_text(per_frame) +
                   (options.grid_allowance ? ", allowed for the grid " + exact_text(allowance) : std::string()) + ")";
        r.failures.push_back(std::move(f));
        motion_failed = true;
      } else {
        s.within_grid = true;
      }
    }
    // jitter, from the second frame on: (a) from the run's own start the ideal frame rests and the
    // run's does not (beyond where the grid may put it); (b) the ideal frames from this start and
    // the previous one end at the same point (the ideal settles there from wherever the run is)
    // and the run still moves, as the continuous rule asks of the last two frames.
    if (!jitter_failed && k > 0 && run_move > rest) {  // run_move is finite: the float travel is
      std::string why;
      if (ideal_move <= rest && run_move > ideal_move + rest) {
        const double allowance = allowance_at(r, ideal_end, exact_mesh, options, run_move - ideal_move - rest);
        if (run_move > ideal_move + rest + allowance)
          why = "from the float run's own start the ideal run rests (moves " + exact_text(ideal_move) +
                ") but the float run moves " + exact_text(run_move) +
                (options.grid_allowance ? " (allowed for the grid " + exact_text(allowance) + ")" : std::string());
      }
      if (why.empty() && ideal_end == ideal.frame_ends[k - 1].rounded)
        why = "the ideal runs from the float run's starts of frames " + std::to_string(k - 1) + " and " +
              std::to_string(k) + " end at the same point, but the float run still moves " + exact_text(run_move);
      if (!why.empty()) {
        Failure f;
        f.kind = FailureClass::jitter;
        f.where = at(k);
        f.detail = frame + why;
        r.failures.push_back(std::move(f));
        jitter_failed = true;
      }
    }
  }
  if (motion_failed) s.within_grid = false;
}

}  // namespace

void judge_travel(QueryRecord& r, IdealSummary& s, const IdealTrajectory& ideal, const IndexedMesh<double>& exact_mesh,
                  const std::vector<Vec3<double>>& frame_ends, const LevelCOptions& options, const StepLocation& where,
                  const std::vector<StepLocation>* frame_wheres, const AnchoredIdealRun& anchored_run) {
  const Query& q = r.query;
  const std::vector<IdealPass>& ip = ideal.passes;
  s.final_distance = length(r.final_position - s.final_position);
  r.undecided += s.unproven;
  // A NaN float end travels nowhere measurable: nonfinite says it already. An ideal run that
  // divides by zero (undefined_operation) has no defined end to fall short of.
  const bool ideal_defined =
      std::none_of(ip.begin(), ip.end(), [](const IdealPass& p) { return p.stop == StopReason::undefined_operation; });
  if (ideal.anchored_frames && ideal.frame_ends.size() == frame_ends.size() && frame_ends.size() >= 2) {
    judge_anchored(r, s, ideal, exact_mesh, frame_ends, options, ideal_defined, where, frame_wheres);
    return;
  }
  s.float_travel = length(r.final_position - q.start);
  s.ideal_travel = length(s.final_position - q.start);
  const double requested = q.frames * (length(q.displacement) + length(q.gravity));
  // Beyond the fraction, the shortfall F's grid may force (grid_allowance.hpp), computed only
  // for a run that falls short by more than the fraction (a few exact tests per candidate).
  const double shortfall = s.ideal_travel - s.float_travel, fraction = options.lost_motion_fraction * requested;
  double allowance = 0;
  bool per_frame = false;
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) && shortfall > fraction &&
      options.grid_allowance) {
    allowance = allowance_at(r, s.final_position, exact_mesh, options, shortfall - fraction);
    // Several frames: every frame end was rounded to the grid (frame_end_allowance), asked only
    // where the final end's allowance does not absorb the shortfall.
    bool tracks_grid = false;
    if (shortfall > fraction + allowance && frame_ends.size() >= 2) {
      const FrameEndAllowance frames =
          frame_end_allowance(r, frame_ends, exact_mesh, options, shortfall - fraction, anchored_run);
      if (frames.sum > allowance) allowance = frames.sum, per_frame = true;
      tracks_grid = frames.tracks_grid;
    }
    s.grid_allowance = allowance;
    s.within_grid = tracks_grid || !(shortfall > fraction + allowance);
  }
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) && shortfall > fraction + allowance &&
      !s.within_grid) {
    Failure f;
    const bool stuck = s.float_travel <= options.stuck_fraction * s.ideal_travel;
    f.kind = stuck ? FailureClass::stuck : FailureClass::lost_motion;
    f.where = where;
    f.detail = std::string(stuck ? "the float run barely moves" : "the float run travels less") + ": |end - start| " +
               exact_text(s.float_travel) + " in " + std::string(precision_name(r.precision)) + ", " +
               exact_text(s.ideal_travel) + " ideal (requested move " + exact_text(requested) +
               (s.grid_allowance ? ", allowed for the grid " + exact_text(*s.grid_allowance) : std::string()) +
               (per_frame ? " over its " + std::to_string(frame_ends.size()) + " frame ends" : std::string()) + ")";
    r.failures.push_back(std::move(f));
  }
  // jitter: the ideal run has settled (its last two frames end at the same double) while the
  // float run still moves measurably in its last frame.
  const std::size_t n = frame_ends.size();
  if (n >= 2 && ideal.error.empty() && ideal_defined && ideal.frame_ends.size() == n) {
    const bool ideal_settled = ideal.frame_ends[n - 1].rounded == ideal.frame_ends[n - 2].rounded;
    const double last_move = length(frame_ends[n - 1] - frame_ends[n - 2]);
    if (ideal_settled && std::isfinite(last_move) &&
        last_move > options.jitter_fraction * (length(q.displacement) + length(q.gravity))) {
      Failure f;
      f.kind = FailureClass::jitter;
      f.where = where;
      f.detail = "the ideal run settles by frame " + std::to_string(n - 1) + " but the float run still moves " +
                 exact_text(last_move) + " in its last frame";
      r.failures.push_back(std::move(f));
    }
  }
}

}  // namespace slidecheck::verify
