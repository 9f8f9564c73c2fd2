#pragma once
/// The conformance suite of `slidecheck rate`, `slidecheck-suite 1` (docs/rate.md): a fixed set
/// of scenes and queries built by the project's own generators (corpora/ and search's
/// constructions) with fixed seeds, for one body shape (sphere or capsule) in one precision, in
/// suite order:
///
///   canonical    every canonical shape at every scale and offset with its moves (scripted,
///                walks, tangent and grazing; for capsules the capsule scenes and bodies too)
///   rotated      the same scenes turned by the general rotation r1, one move in 8 kept
///   maps         walks, tangent and grazing moves on OpenArena's oa_dm1 and oa_ctf2 (draw and
///                brush soups); only in the "full" variant, which needs pak1-maps.pk3
///   pushes       the scripted paths of the corner, crease and wedge shapes as 8-frame pushes,
///                at every scale and offset (judged at level C too)
///   recovery     scripted paths of the floor, ramp, stairs, corner and trough shapes started
///                half a radius lower: starts inside the mesh, from which a controller recovers
///   adversarial  32 candidates of each of search's constructions (search seed 1)
///
/// Level C runs on the pushes and on one canonical query in 31. A suite is identified by the
/// SHA-256 of its canonical serialisation: every scene file's name and text and every query's
/// line with its part, placement and level, each sorted, so the hash depends on the content
/// alone, never on file order, threads or shards. The variant without maps ("nomaps") hashes
/// differently. A slice K/N keeps the queries whose id hashes to K-1 modulo N (for quick runs);
/// the hash is the whole suite's.
#include <slidecheck/verify/rate/rating.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/formats/scene.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify::rate {

inline constexpr int kSuiteVersion = 1;

/// The queries whose id's FNV-1a hash is K-1 modulo N (K from 1): N slices partition the suite,
/// each a spread sample of every part, scale and offset whatever the suite's order and sampling.
struct Slice {
  std::size_t k = 1, n = 1;
  bool whole() const { return n == 1; }
  bool contains(std::string_view id) const;
  std::string text() const;  ///< "K/N"
  friend bool operator==(const Slice&, const Slice&) = default;
};
/// "K/N" with 1 <= K <= N; std::invalid_argument otherwise.
Slice parse_slice(std::string_view text);

struct SuiteOptions {
  std::string shape = "sphere";  ///< "sphere" or "capsule"
  formats::Precision precision = formats::Precision::single_float;
  std::string maps;              ///< pak1-maps.pk3 for the full variant; empty: the "nomaps" variant
};

struct SuiteQuery {
  formats::Query query;  ///< id "<part>/<scene stem>/<generator id>", scene the scene file's name
  Placement placement;
};

struct Suite {
  SuiteIdentity identity;  ///< the whole suite's (slice "1/1")
  std::vector<std::string> parts;
  std::vector<formats::Scene> scenes;    ///< each scene's file name is scene_files[i]
  std::vector<std::string> scene_files;
  std::vector<SuiteQuery> queries;       ///< suite order
};

/// Builds the suite in memory (a few seconds to a minute). formats::InputError when `maps` is
/// not a readable OpenArena archive; std::invalid_argument for an unknown shape.
Suite build_suite(const SuiteOptions& options);

/// The suite's content hash (see above).
std::string suite_hash(const Suite& suite);

/// Writes the suite into `dir` (created): its scenes, queries.jsonl (every query, suite order)
/// and suite.json (identity, parts and each query's placement).
void write_suite(const Suite& suite, const std::string& dir);

/// The suite written in `dir`, read back and re-hashed; formats::InputError naming the file when
/// it is not a suite or its content does not have the hash suite.json records.
Suite read_suite(const std::string& dir);

/// The query files verify runs for `slice`, written into `dir` beside the scenes: the levels
/// A and B queries and the level C ones (either may be empty: then its file is not written and
/// its name is ""). Returns {ab_file, c_file}.
std::pair<std::string, std::string> write_slice(const Suite& suite, const Slice& slice, const std::string& dir);

/// Each query's placement by id, for `aggregate`.
std::map<std::string, Placement> placements_of(const Suite& suite);

}  // namespace slidecheck::verify::rate
