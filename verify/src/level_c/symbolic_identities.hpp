#pragma once
// Symbolic identities applied when a Certified node is built (docs/level-c.md, "Deep ties").
// Each replaces a node by an exactly equal, smaller one, so every later decision is decided on
// the same exact value: sound as long as the identity holds, which is checked structurally
// (the very same child nodes) and, for divisions, only when the divisor is proven nonzero by
// its enclosure (otherwise the original node, undefined at 0, is kept).
#include <slidecheck/verify/level_c/certified.hpp>

#include <memory>

namespace slidecheck::certified::detail {

/// The squared length of a normalised vector, optionally scaled by s:
/// ((a/L s)^2 + (b/L s)^2) + (c/L s)^2 with L = sqrt((a a + b b) + c c) is s s (1 without s),
/// as the node for x + y; nullptr when x + y is not of that shape. Recognising it keeps
/// |n|^2 = 1 (and |n s| = |s|) exact for CORE, whose root bounds otherwise pay for the same
/// radical L three more times.
std::shared_ptr<Node> unit_norm_squared(const std::shared_ptr<Node>& x, const std::shared_ptr<Node>& y);

/// |s| for sqrt(x) with x = s * s, else nullptr.
std::shared_ptr<Node> sqrt_of_square(const std::shared_ptr<Node>& x);

/// Whether the current session applies the identities (Options::symbolic_identities).
bool symbolic_identities();

}  // namespace slidecheck::certified::detail
