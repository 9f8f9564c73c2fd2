#pragma once
// One cell of an eps sweep (eps_sweep.hpp): the corpus moved into the cell's world (scale and
// offset, docs/eps-sweep.md), each query verified under the cell's tolerance value, and the
// outcomes aggregated into an EpsCell.
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>

#include <optional>
#include <string>
#include <vector>

namespace slidecheck::verify::eps_sweep {

/// The tolerance the sweep varies for algorithm `a` (default_swept_tolerance unless chosen).
std::string tolerance_of(const EpsSweepOptions& o, Algorithm a);

/// The corpus at one world scale and offset: scenes and queries transformed (docs/eps-sweep.md).
struct World {
  double scale = 1, offset = 0;
  std::vector<QueryInput> inputs;
};

/// The queries of `base` in the world of `scale` and `offset`: every scene coordinate and
/// query number scaled, then the offset added to every coordinate and the start. InputError
/// when a vertex overflows.
World make_world(const std::vector<QueryInput>& base, double scale, double offset);

/// What one query contributes to its cell.
struct QueryOutcome {
  bool invalid = false, failed = false, eps_failed = false, back_face = false;
  std::vector<FailureClass> classes;
  std::optional<double> clearance;
  double depth = 0;
  std::optional<double> travel_fraction, lost_fraction;
  int iterations = 0;
  double magnitude = 0;
  QueryRecord record;
};

/// Verifies one query in the cell `key` (its tolerance `tolerance` set to the cell's value).
QueryOutcome run_one(const QueryInput& in, const CellKey& key, const std::string& tolerance, const EpsSweepOptions& o);

/// The cell's aggregate of its queries' outcomes (in corpus order).
EpsCell aggregate(const CellKey& key, const std::string& tolerance, const std::vector<QueryOutcome>& outcomes);

}  // namespace slidecheck::verify::eps_sweep
