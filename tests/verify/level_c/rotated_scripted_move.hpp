#pragma once
// A scripted move of the rotated canonical corpus as `corpus build --rotations` writes it, for
// level C's tests of the ideal run (relative to the start, anchored frames), and what level C's
// properties over several frames share: their random rotated pushes, the exact run they compare
// with, and the verdicts they compare.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/corpora/rotated_corpus.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>

#include <rapidcheck.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

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

/// A rotated push drawn by draw_rotated_push: the move (its velocity scaled by `move`), the
/// algorithm and the number of frames.
struct RotatedPush {
  RotatedMove c;
  formats::Algorithm algorithm;
  double move = 1;
  int frames = 1;
};

/// A random push into a corner, crease or wedge of the rotated canonical shapes (r1 to r3, scale 1,
/// at the origin or 100 away), every algorithm, the move scaled by 0.5 to 1.25, `min_frames` to 3
/// frames. The draws come in this order, so a seed draws the same push in every property.
inline RotatedPush draw_rotated_push(int min_frames) {
  struct Push {
    const char* shape;
    const char* path;
  };
  static const std::vector<Push> pushes{{"room_corner", "into-corner"},   {"room_corner", "slide-into-corner"},
                                        {"obtuse_corner", "into-corner"}, {"acute_corner", "into-wedge"},
                                        {"v_trough", "into-crease"},      {"stairs", "into-riser"},
                                        {"thin_wedge", "into-mouth"},     {"box_room", "into-floor-corner"}};
  static const std::vector<formats::Algorithm> algorithms{formats::Algorithm::fauerby, formats::Algorithm::linahan,
                                                          formats::Algorithm::monter,
                                                          formats::Algorithm::pseudo_distance,
                                                          formats::Algorithm::robust};
  const Push& push = *rc::gen::elementOf(pushes);
  const formats::Algorithm algorithm = *rc::gen::elementOf(algorithms);
  const std::size_t rotation = *rc::gen::inRange<std::size_t>(1, 3);
  const double offset = *rc::gen::element(0.0, 100.0);
  const double move = *rc::gen::element(0.5, 0.75, 1.0, 1.25);  // exact in binary: the move stays a double
  const int frames = *rc::gen::inRange(min_frames, 4);
  RotatedPush out{rotated_scripted_move(push.shape, rotation, push.path, 1, offset), algorithm, move, frames};
  out.c.input.velocity = out.c.input.velocity * move;
  return out;
}

/// Whether the exact run a property compares with gives verdicts to compare: proven within its
/// budget, and defined. A frame started exactly in contact can divide an exact 0 by 0 (fauerby:
/// the fauerby-zero-over-zero regression); the exact run then has no defined end and level C
/// judges no travel against it. The draw is tagged with why not.
inline bool exact_run_comparable(const verify::IdealTrajectory& exact) {
  if (!exact.fully_proven()) {
    RC_TAG("exact run not proven within its budget: nothing to compare");
    return false;
  }
  const auto undefined = [](const verify::IdealPass& p) { return p.stop == StopReason::undefined_operation; };
  if (std::any_of(exact.passes.begin(), exact.passes.end(), undefined)) {
    RC_TAG("exact run undefined (0 / 0 at an exact contact): no verdict to keep");
    return false;
  }
  return true;
}

/// What level C's verdicts read of an ideal run (travel_judgement.cpp): the rounded frame ends and
/// final position, and whether a pass stopped undefined. The first difference, else empty.
inline std::string verdict_difference(const verify::IdealTrajectory& a, const verify::IdealTrajectory& b) {
  const auto undefined = [](const verify::IdealTrajectory& t) {
    return std::any_of(t.passes.begin(), t.passes.end(),
                       [](const verify::IdealPass& p) { return p.stop == StopReason::undefined_operation; });
  };
  if (undefined(a) != undefined(b)) return "one run is undefined";
  if (a.frame_ends.size() != b.frame_ends.size()) return "frame counts differ";
  const auto text = [](const Vec3<double>& v) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "(%a, %a, %a)", v.x, v.y, v.z);
    return std::string(buf);
  };
  const auto stops = [](const verify::IdealTrajectory& t) {
    std::string s;
    for (const verify::IdealPass& p : t.passes)
      s += std::string(to_string(p.stop)) + "@" + std::to_string(p.iterations) + " ";
    return s;
  };
  for (std::size_t k = 0; k < a.frame_ends.size(); ++k)
    if (!same(a.frame_ends[k].rounded, b.frame_ends[k].rounded))
      return "frame end " + std::to_string(k) + " differs: " + text(a.frame_ends[k].rounded) + " [" + stops(a) +
             "] against " + text(b.frame_ends[k].rounded) + " [" + stops(b) + "]";
  if (!same(a.final_position.rounded, b.final_position.rounded)) return "final positions differ";
  return {};
}

}  // namespace slidecheck::test
