#pragma once
// slidecheck's own shrinks of a candidate (case_shrink.hpp lists them, biggest steps first) as
// a RapidCheck shrink tree, for the search's generators and the shrinker's local-minimum
// search.
#include <slidecheck/verify/search/candidate.hpp>

#include <rapidcheck.h>

#include <ostream>

namespace slidecheck::verify {

/// The immediate shrinks of a candidate, lazily, in case_shrink.hpp's order.
rc::Seq<Candidate> candidate_shrinks(const Candidate& c);

/// A RapidCheck Shrinkable whose shrink tree applies candidate_shrinks recursively.
rc::Shrinkable<Candidate> shrinkable_candidate(Candidate c);

/// Prints a candidate for RapidCheck counterexamples: every number in hexfloat.
void showValue(const Candidate& c, std::ostream& os);

}  // namespace slidecheck::verify
