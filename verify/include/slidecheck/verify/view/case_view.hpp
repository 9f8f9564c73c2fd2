#pragma once
/// The data behind `slidecheck view` (docs/view.md): everything the page of one case draws
/// and lists, as JSON text. The case is replayed as `replay` does (the verdict run checked as
/// verify checks it, and the same float run with every step re-evaluated exactly), and the ideal
/// trajectory (level C) is run for the exact path. Geometry is in scene units (eSpace values
/// of the trace scaled back by the radii); every number is a double printed losslessly by the
/// JSON writer, with the step's own hexfloat text beside it for people.

#include <slidecheck/verify/cases/case_file.hpp>

#include <string>

namespace slidecheck::verify {

struct CaseViewOptions {
  bool level_c = true;                 ///< run the ideal trajectory for the exact path
  double exact_timeout_seconds = 2;    ///< per undecided exact decision (level C)
};

/// Members: title, case (file, algorithm, precision, query, radii, classes, recorded and
/// replayed first divergent step, reproduced), triangles (corners), float_path, ideal (path,
/// note, divergence) or null, steps (name, text, pass, iteration, sphere, point, move, plane,
/// crease, triangle, exact values and decisions, failures, first_divergent), focus (the first
/// divergent step's point and the scale of its divergence). JSON text, with object members in
/// this order.
std::string case_view_json(const CaseFile& c, const std::string& file, const CaseViewOptions& options = {});

}  // namespace slidecheck::verify
