#pragma once
// RapidCheck generators of the search's candidates (constructions.hpp describes each
// construction). The shrink tree of every generated candidate is candidate_shrinks.hpp's.
#include <slidecheck/verify/search/candidate.hpp>
#include <slidecheck/verify/search/constructions.hpp>

#include <rapidcheck.h>

#include <string_view>

namespace slidecheck::verify {

/// Candidates of one construction (a name of constructions_for(shape)) for `algorithm` in
/// `precision`, their body a `shape` of searched_shape_names; throws std::invalid_argument for an
/// unknown name, a shape search does not generate, or a construction of another shape.
/// `rotated`: each candidate is rotated exactly by one of general_rotations (exact_rotation.hpp),
/// drawn, before it is rounded, so that it is in general position (constructions.hpp). A sphere
/// candidate draws what it drew before capsules existed: a capsule's draws come after the
/// construction's own.
rc::Gen<Candidate> gen_construction(std::string_view name, Algorithm algorithm, Precision precision,
                                    bool rotated = false, std::string_view shape = "sphere");

/// Candidates of every construction of the shape, equally likely.
rc::Gen<Candidate> gen_candidate(Algorithm algorithm, Precision precision, bool rotated = false,
                                 std::string_view shape = "sphere");

}  // namespace slidecheck::verify
