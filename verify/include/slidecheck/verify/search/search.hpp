#pragma once
/// Property search (docs/search.md): generate candidates with RapidCheck (constructions.hpp)
/// until one fails with the wanted class, then shrink it (case_shrink.hpp). The attempt
/// sequence depends only on the seed: attempt i draws from rc::Random(SplitMix64(seed, i)),
/// candidates are generated in order on one thread and verified in parallel chunks, and the
/// failure reported is the lowest attempt index that fails, so the result is the same for
/// every thread count. The search's directory and the merge of shards: search_merge.hpp.

#include <slidecheck/verify/search/candidate.hpp>
#include <slidecheck/verify/search/case_shrink.hpp>
#include <slidecheck/verify/run/shard.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace slidecheck::verify {

struct SearchOptions {
  Algorithm algorithm = Algorithm::fauerby;
  Precision precision = Precision::single_float;
  /// The failure class searched for; nullopt: any class (the first in report order).
  std::optional<FailureClass> property;
  /// One construction (constructions.hpp) or empty for all of them.
  std::string construction;
  /// Every candidate rotated exactly into general position before it is rounded
  /// (constructions.hpp); part of the search's description (run.json "rotated", when set).
  bool rotated = false;
  /// The body of every candidate, one of searched_shape_names (constructions.hpp): a sphere, or a
  /// capsule, which the built-in algorithms do not run (an external implementation answers).
  /// Part of the search's description (run.json "shape", when not the sphere).
  std::string shape = "sphere";
  std::uint64_t seed = 1;
  std::size_t budget = 10000;  ///< candidates generated at most
  /// Only the attempts i < budget with i = I mod N (shard.hpp). The lowest failing attempt of
  /// all the shards is the one a whole run finds, so `merge_searches` keeps that shard's case.
  Shard shard;
  int threads = 0;             ///< 0: TBB's default
  bool shrink = true;
  ShrinkOptions shrink_options;  ///< its `external` is the search's
  /// When set, the external implementation answers every candidate (its name is the
  /// candidates' algorithm; `algorithm` is ignored).
  std::shared_ptr<const ExternalSubject> external;
  /// Called after every chunk of candidates: tried so far, invalid so far, failures of the
  /// wanted class so far (the search stops at the end of the chunk with the first one).
  std::function<void(std::size_t tried, std::size_t invalid, std::size_t failing)> on_progress;
};

struct SearchResult {
  std::size_t tried = 0;    ///< candidates generated and verified
  std::size_t invalid = 0;  ///< invalid scene or a start already overlapping a triangle
  /// Candidates with each class (any class a record had), over the tried ones.
  std::map<FailureClass, std::size_t> classes_seen;
  std::optional<std::size_t> found_at;  ///< the attempt index of the failure kept
  Candidate original;                   ///< the failing candidate as generated
  QueryRecord original_record;
  FailureSignature signature;
  std::optional<ShrinkResult> shrunk;
  double search_seconds = 0;
};

/// Runs the search; never throws for a candidate that fails to verify (it counts as invalid).
SearchResult search_failure(const SearchOptions& options);

/// The random seed of attempt `index` under `seed` (SplitMix64 of both; reproducible).
std::uint64_t attempt_seed(std::uint64_t seed, std::size_t index);

}  // namespace slidecheck::verify
