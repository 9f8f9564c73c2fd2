#pragma once
// RapidCheck generators of the search's candidates (constructions.hpp describes each
// construction). The shrink tree of every generated candidate is candidate_shrinks.hpp's.
#include <slidecheck/verify/search/candidate.hpp>
#include <slidecheck/verify/search/constructions.hpp>

#include <rapidcheck.h>

#include <string_view>

namespace slidecheck::verify {

/// Candidates of one construction (a name of construction_names) for `algorithm` in
/// `precision`; throws std::invalid_argument for an unknown name. `rotated`: each candidate is
/// rotated exactly by one of general_rotations (exact_rotation.hpp), drawn, before it is
/// rounded, so that it is in general position (constructions.hpp).
rc::Gen<Candidate> gen_construction(std::string_view name, Algorithm algorithm, Precision precision,
                                    bool rotated = false);

/// Candidates of every construction, equally likely.
rc::Gen<Candidate> gen_candidate(Algorithm algorithm, Precision precision, bool rotated = false);

}  // namespace slidecheck::verify
