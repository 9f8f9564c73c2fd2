// Property search: generate, verify in parallel, keep the first failure, shrink (search.hpp).
#include <slidecheck/verify/search/search.hpp>

#include "search/search_generators.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <memory>

namespace slidecheck::verify {

std::uint64_t attempt_seed(std::uint64_t seed, std::size_t index) {
  // SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
  // OOPSLA 2014) over seed and index.
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(index) + 0x632BE59BD9B4E019ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

SearchResult search_failure(const SearchOptions& o) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  std::unique_ptr<tbb::global_control> limit;
  if (o.threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  static_cast<std::size_t>(o.threads));
  const Algorithm algorithm = o.external ? o.external->columns.front().first : o.algorithm;
  const rc::Gen<Candidate> gen = o.construction.empty()
                                     ? gen_candidate(algorithm, o.precision, o.rotated, o.shape)
                                     : gen_construction(o.construction, algorithm, o.precision, o.rotated, o.shape);
  const bool level_c = o.property && needs_level_c(*o.property);
  SearchResult result;
  std::size_t failing = 0;
  constexpr std::size_t chunk = 64;
  // The shard's attempts (all of them for a whole run), in order, `chunk` at a time.
  const std::size_t mine = o.shard.size_of(o.budget);
  auto attempt = [&](std::size_t j) { return o.shard.index + j * o.shard.count; };
  for (std::size_t begin = 0; begin < mine && !result.found_at; begin += chunk) {
    const std::size_t end = std::min(mine, begin + chunk);
    std::vector<Candidate> candidates;
    for (std::size_t j = begin; j < end; ++j)
      candidates.push_back(gen(rc::Random(attempt_seed(o.seed, attempt(j))), rc::kNominalSize).value());
    std::vector<std::optional<QueryRecord>> records(candidates.size());
    tbb::parallel_for(std::size_t{0}, candidates.size(), [&](std::size_t k) {
      records[k] = evaluate_candidate(candidates[k], o.precision, level_c,
                                      "search attempt " + std::to_string(attempt(begin + k)), o.external.get());
    });
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      ++result.tried;
      const auto& r = records[k];
      // A start inside the mesh is an invalid candidate, unless it has the class searched for
      // (or any class) and search keeps that class on an invalid start (recovery).
      const auto wanted_here = [&](FailureClass c) {
        return (!o.property || *o.property == c) && kept_by_search(c, true) && r->has(c);
      };
      if (!r || (r->invalid_start && std::none_of(all_failure_classes.begin(), all_failure_classes.end(), wanted_here))) {
        ++result.invalid;
        continue;
      }
      std::optional<FailureClass> kind = o.property;
      for (const FailureClass c : all_failure_classes)
        if (r->has(c)) {
          ++result.classes_seen[c];
          if (!kind) kind = c;
        }
      if (!kind || !r->has(*kind)) continue;
      ++failing;
      if (!result.found_at) {
        result.found_at = attempt(begin + k);
        result.original = candidates[k];
        result.original_record = *r;
        result.signature = *signature_of(*r, *kind);
      }
    }
    if (o.on_progress) o.on_progress(result.tried, result.invalid, failing);
  }
  result.search_seconds = std::chrono::duration<double>(clock::now() - t0).count();
  if (result.found_at && o.shrink) {
    ShrinkOptions so = o.shrink_options;
    so.external = o.external;
    result.shrunk = shrink_candidate(result.original, o.precision, result.signature, so);
  }
  return result;
}

}  // namespace slidecheck::verify
