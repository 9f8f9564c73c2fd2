#pragma once
// Which values the identity stage (identity_stage.hpp) holds opaque: for a cut at serial T,
// the fewest nodes older than T that separate the root's newer part from every older quotient,
// square root or absolute value nesting radicals. Those older atoms are where polynomials grow
// without bound when multiplied out; the fewest separating values are the state the newer part
// starts from (a slide's position and velocity), whose own relations the newer part keeps.
#include <slidecheck/verify/level_c/certified.hpp>

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace slidecheck::certified::detail {

/// The nesting depth of square roots of every node below a root: a radical's is one more than
/// its radicand's, a leaf's 0, others the largest of their operands'.
class NestingDepth {
 public:
  int of(const Node* n);

 private:
  std::unordered_map<const Node*, int> depth_;
};

/// A minimum vertex cut (a maximum flow, Edmonds and Karp 1972, with Boost.Graph) between the
/// root and the atoms older than `serial` (quotients, roots, absolute values of nesting depth
/// 2 or more); nodes of depth 0 or 1 (rationals and roots of rationals) are never cut.
std::unordered_set<const Node*> opaque_cut(const Node& root, std::uint64_t serial, NestingDepth& depth);

}  // namespace slidecheck::certified::detail
