// lost_motion, stuck and jitter: a run's travel against the ideal run's (travel_judgement.hpp).
#include <slidecheck/verify/level_c/travel_judgement.hpp>

#include <slidecheck/verify/level_c/grid_allowance.hpp>

#include <algorithm>
#include <cmath>
#include <string>

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
                 .core = counts.count(Method::core),
                 .undecided = counts.count(Method::undecided),
                 .ties = counts.ties};
  return s;
}

void judge_travel(QueryRecord& r, IdealSummary& s, const IdealTrajectory& ideal, const IndexedMesh<double>& exact_mesh,
                  const std::vector<Vec3<double>>& frame_ends, const LevelCOptions& options, const StepLocation& where) {
  const Query& q = r.query;
  const std::vector<IdealPass>& ip = ideal.passes;
  s.float_travel = length(r.final_position - q.start);
  s.ideal_travel = length(s.final_position - q.start);
  s.final_distance = length(r.final_position - s.final_position);
  r.undecided += s.unproven;
  const double requested = q.frames * (length(q.displacement) + length(q.gravity));
  // A NaN float end travels nowhere measurable: nonfinite says it already. An ideal run that
  // divides by zero (undefined_operation) has no defined end to fall short of.
  const bool ideal_defined =
      std::none_of(ip.begin(), ip.end(), [](const IdealPass& p) { return p.stop == StopReason::undefined_operation; });
  // Beyond the fraction, the shortfall F's grid may force (grid_allowance.hpp), computed only
  // for a run that falls short by more than the fraction (a few exact tests per candidate).
  const double shortfall = s.ideal_travel - s.float_travel, fraction = options.lost_motion_fraction * requested;
  double allowance = 0;
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) && shortfall > fraction &&
      options.grid_allowance) {
    allowance = r.precision == Precision::single_float
                    ? grid_allowance<float>(s.final_position, q.radii.radii, exact_mesh)
                    : grid_allowance<double>(s.final_position, q.radii.radii, exact_mesh);
    s.grid_allowance = allowance;
    s.within_grid = !(shortfall > fraction + allowance);
  }
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) && shortfall > fraction + allowance) {
    Failure f;
    const bool stuck = s.float_travel <= options.stuck_fraction * s.ideal_travel;
    f.kind = stuck ? FailureClass::stuck : FailureClass::lost_motion;
    f.where = where;
    f.detail = std::string(stuck ? "the float run barely moves" : "the float run travels less") + ": |end - start| " +
               exact_text(s.float_travel) + " in " + std::string(precision_name(r.precision)) + ", " +
               exact_text(s.ideal_travel) + " ideal (requested move " + exact_text(requested) +
               (s.grid_allowance ? ", allowed for the grid " + exact_text(*s.grid_allowance) : std::string()) + ")";
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
