#pragma once
// A scripted move of the rotated canonical corpus as `corpus build --rotations` writes it, for
// level C's tests of the ideal run (relative to the start, anchored frames).
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/corpora/rotated_corpus.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>
#include <slidecheck/reference/response/slide_result.hpp>

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace slidecheck::test {

/// The same bits (so 0 and -0 differ, and a NaN equals itself): ideal runs compared end for end.
inline bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
inline bool same(const Vec3<double>& a, const Vec3<double>& b) { return same(a.x, b.x) && same(a.y, b.y) && same(a.z, b.z); }

struct RotatedMove {
  std::string label;
  SlideInput<double> input;
  IndexedMesh<double> mesh;  ///< the whole placed mesh, not culled
  int frames = 1;
};

/// The scripted move `path` of `shape_name` rotated by r<k> and placed in float at `scale` and
/// `offset`.
inline RotatedMove rotated_scripted_move(const std::string& shape_name, std::size_t k, const std::string& path,
                                         double scale, double offset) {
  const corpora::CanonicalShape& shape = corpora::canonical_shape(shape_name);
  const ExactRotation& r = general_rotations[k - 1];
  const std::string id = "script-" + shape_name + "-" + path;
  for (const formats::Query& unit : corpora::scripted_moves(shape))
    if (unit.id == id) {
      const formats::Query q = corpora::place_rotated_query(unit, r, scale, offset, formats::Precision::single_float);
      return {shape_name + "_r" + std::to_string(k) + " " + id + " scale " + std::to_string(scale) + " offset " +
                  std::to_string(offset),
              {q.start, q.displacement, espace_radii(q.shape), q.gravity},
              corpora::place_rotated(shape, r, scale, offset, formats::Precision::single_float),
              q.frames};
    }
  throw std::invalid_argument("no scripted move " + id);
}

}  // namespace slidecheck::test
