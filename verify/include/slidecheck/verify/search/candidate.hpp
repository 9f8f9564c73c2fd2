#pragma once
/// A candidate failing case, as `slidecheck search` and `slidecheck shrink` handle it: a scene
/// held in memory and one query, run by one algorithm in one precision. Every number of a
/// candidate is exactly representable in that precision (the shrinks round after every
/// change), so what is verified is what is written to the case file.
///
/// The failure signature is what a shrink must keep (docs/search.md): the failure class, and
/// the first divergent step identified by what it is (pass, iteration, step name, decision),
/// not by its global step number, which counts trace events and so changes when triangles
/// are dropped. A failure with no divergent decision (an algorithmic one: float and exact
/// agree on every decision) must keep having none.

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/run/external_subject.hpp>
#include <slidecheck/formats/scene.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

struct Candidate {
  Scene scene;
  Query query;  ///< query.algorithm is the algorithm the candidate is run with
};

/// The candidate a case file holds (its scene and query, tolerances as recorded).
Candidate candidate_of(const CaseFile& c);

/// The candidate of a verified record: the triangles its run was given (record.run_triangles,
/// all when empty) as the run saw them (rounded to its precision), and the rounded query with
/// every tolerance written out.
Candidate candidate_of(const SceneContext& scene, const QueryRecord& record, const ExternalSubject* external = nullptr);

/// How big a candidate is, as the shrink report prints it.
struct CandidateSize {
  std::size_t triangles = 0;
  std::size_t numbers = 0;   ///< vertex coordinates of used vertices, then the query's numbers
  int max_bits = 0;          ///< most significant bits of any number (0 has none)
  double mean_bits = 0;
  double move_length = 0;    ///< |displacement| (double rounding)
  double magnitude = 0;      ///< largest |coordinate| of any vertex or the start
};
CandidateSize size_of(const Candidate& c);
std::ostream& operator<<(std::ostream& os, const CandidateSize& s);

/// Significant bits of a finite double: the least k with x = m * 2^e, |m| < 2^k (0 for 0).
int significant_bits(double x);
/// x rounded to nearest (ties away from zero) with k >= 1 significant bits; exact scaling by
/// powers of two, so the result is exact in any precision holding k bits at x's exponent.
double round_to_bits(double x, int k);
/// x rounded to the nearest value of precision p (identity for double).
double round_to(double x, Precision p);

/// The numbers of a candidate a shrink may change, by index: the coordinates of every vertex
/// used by a triangle, then start, displacement, gravity (x, y, z each) and the body's
/// lengths (its shape's `length(i)`: a sphere's radius, an ellipsoid's semi-axes, a capsule's
/// radius and half axis).
std::size_t number_count(const Candidate& c);
double number(const Candidate& c, std::size_t i);
/// A copy with number i set to v (rounded to the candidate's precision).
Candidate with_number(const Candidate& c, std::size_t i, double v);
/// True for the indices of the radius numbers: the body's lengths that must stay positive
/// (must_be_positive: every length of a sphere or an ellipsoid, a capsule's radius, not its
/// half axis, whose components may be 0 or negative as long as one is not 0).
bool is_radius_number(const Candidate& c, std::size_t i);
/// True for the indices of the body's lengths (radius numbers or not).
bool is_length_number(const Candidate& c, std::size_t i);

/// Drops the triangles not in `keep` (scene order kept) and the vertices no triangle uses.
Candidate with_triangles(const Candidate& c, const std::vector<std::size_t>& keep);

/// What a shrink keeps: the class and the identity of the first divergent step.
struct FailureSignature {
  FailureClass kind{};
  std::optional<DivergentStep> first_divergent;  ///< its where.step is not compared
};
bool same_signature(const FailureSignature& a, const FailureSignature& b);
std::ostream& operator<<(std::ostream& os, const FailureSignature& s);

/// The signature of `kind` in a record, if the record has that failure on a start search keeps
/// it on (kept_by_search: a valid start, or an invalid one for recovery).
std::optional<FailureSignature> signature_of(const QueryRecord& r, FailureClass kind);

/// Validates the candidate's scene and verifies its query with `precision` (the candidate's
/// algorithm); level C, when asked, with an exact budget of 0.25 s per decision. With
/// `external`, the external implementation answers instead and its path is judged (level C as
/// the subject was made). nullopt when the scene is invalid (zero-area triangle after a
/// shrink, a number not exact in the precision) or the body is (a capsule whose half axis is 0,
/// a sphere that files refuse as a capsule): such a candidate is never interesting.
std::optional<QueryRecord> evaluate_candidate(const Candidate& c, Precision precision, bool level_c,
                                              const std::string& label = "candidate",
                                              const ExternalSubject* external = nullptr);

/// Writes the candidate with its verified record as a case file (every triangle of the
/// candidate, tolerances written out); `source` says where it came from.
/// `external`: its tolerances are the case's (an external implementation's, not a built-in's).
CaseFile case_of(const Candidate& c, const QueryRecord& record, const std::string& source,
                 const ExternalSubject* external = nullptr);

}  // namespace slidecheck::verify
