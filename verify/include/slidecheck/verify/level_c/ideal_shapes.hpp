#pragma once
/// The bodies the ideal collide-and-slide (robust in Certified, docs/level-c.md) runs: the
/// shapes with eSpace radii (robust's sphere pass in their eSpace) and the capsule (the sphere's
/// pass on each triangle's prism, robust/capsule.hpp). Level C skips any other body with its
/// reason in the record, so a new shape without an ideal run of its own is judged at levels A
/// and B only (docs/architecture.md, "Adding a shape").

#include <slidecheck/reference/geometry/body/shape.hpp>

#include <variant>

namespace slidecheck::verify {

inline bool ideal_runs_shape(const Shape<double>& shape) {
  return has_espace(shape) || std::holds_alternative<Capsule<double>>(shape);
}

}  // namespace slidecheck::verify
