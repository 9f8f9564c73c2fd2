#pragma once
// Shared by the fast/ differential tests: bit-for-bit comparison of fast and reference results,
// and a reproducible random query generator around a mesh.
#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/fast/sweep.hpp>
#include <slidecheck/fast/sweep_robust.hpp>
#include <slidecheck/verify/run/slide_difference.hpp>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace slidecheck::test {

// same_bits and slide_difference live in the verify library (`verify --implementation fast`
// compares with them too).
using verify::same_bits;
using verify::slide_difference;

template <class F>
std::string detection_difference(const DetectionResult<F>& a, const DetectionResult<F>& b) {
  if (a.hit != b.hit) return "hit";
  if (!a.hit) return {};
  if (a.triangle != b.triangle) return "triangle";
  if (a.feature != b.feature || a.feature_index != b.feature_index) return "feature";
  if (!same_bits(a.time_value, b.time_value)) return "time";
  if (!same_bits(a.travel_distance, b.travel_distance)) return "travel_distance";
  if (a.contact_point.has_value() != b.contact_point.has_value() ||
      (a.contact_point && !same_bits(*a.contact_point, *b.contact_point)))
    return "contact_point";
  if (a.normal.has_value() != b.normal.has_value() || (a.normal && !same_bits(*a.normal, *b.normal))) return "normal";
  return {};
}

template <class F>
std::string robust_sweep_difference(const robust::SweepOutcome<F>& a, const robust::SweepOutcome<F>& b) {
  if (!same_bits(a.end, b.end)) return "end";
  if (!same_bits(a.skin, b.skin)) return "skin";
  if (!same_bits(a.contact_radius, b.contact_radius)) return "contact_radius";
  if (a.hit.has_value() != b.hit.has_value()) return "hit";
  if (!a.hit) return {};
  if (a.hit->triangle != b.hit->triangle) return "triangle";
  if (a.hit->feature != b.hit->feature || a.hit->feature_index != b.hit->feature_index) return "feature";
  if (!same_bits(a.hit->time, b.hit->time)) return "time";
  if (!same_bits(a.hit->contact_point, b.hit->contact_point)) return "contact_point";
  if (a.hit->at_start != b.hit->at_start) return "at_start";
  return {};
}

/// Random sphere moves around the box [lo, hi] of a mesh: starts in the box grown by 2 radii,
/// displacements up to `reach`, gravity on half of them; radius fixed.
template <class F>
std::vector<SlideInput<F>> random_inputs(const IndexedMesh<F>& mesh, double radius, double reach, std::size_t n,
                                         std::uint64_t seed) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (const auto& v : mesh.vertices) {
    const double c[3] = {double(v.x), double(v.y), double(v.z)};
    for (int j = 0; j < 3; ++j) lo[j] = std::min(lo[j], c[j]), hi[j] = std::max(hi[j], c[j]);
  }
  std::mt19937_64 rng(seed);
  auto uni = [&](double a, double b) { return a + (b - a) * (double(rng() >> 11) * 0x1p-53); };
  std::vector<SlideInput<F>> out;
  const F r = F(radius);
  for (std::size_t i = 0; i < n; ++i) {
    SlideInput<F> in;
    in.start = {F(uni(lo[0] - 2 * radius, hi[0] + 2 * radius)), F(uni(lo[1] - 2 * radius, hi[1] + 2 * radius)),
                F(uni(lo[2] - 2 * radius, hi[2] + 2 * radius))};
    in.velocity = {F(uni(-reach, reach)), F(uni(-reach, reach)), F(uni(-reach, reach))};
    in.radii = {{r, r, r}};
    if (rng() & 1) in.gravity = {F(0), F(0), F(-uni(0, reach / 4))};
    out.push_back(in);
  }
  return out;
}

/// Runs fast vs reference for robust, the three seed responses and the two detections; returns the
/// counts (queries, and how many touched the mesh: callers check that the comparison meant
/// something), failing the test case with the query's data on a difference.
struct DifferentialCounts {
  std::size_t checked = 0, detection_hits = 0, slides_with_contact = 0, robust_with_contact = 0, robust_sweep_hits = 0;
  DifferentialCounts& operator+=(const DifferentialCounts& o) {
    checked += o.checked, detection_hits += o.detection_hits, slides_with_contact += o.slides_with_contact;
    robust_with_contact += o.robust_with_contact, robust_sweep_hits += o.robust_sweep_hits;
    return *this;
  }
};

template <class F>
DifferentialCounts check_fast_equals_reference(const IndexedMesh<F>& mesh, const std::vector<SlideInput<F>>& inputs,
                                        const std::string& what) {
  const fast::World<F> world = fast::World<F>::build(mesh);
  const fast::World<F> robust_world = fast::World<F>::build(mesh, fast::robust_world_options());
  // A second world with the eSpace triangles cached for the inputs' radius.
  fast::World<F> prepared = world;
  if (!inputs.empty()) prepared.prepare_espace(inputs.front().radii);
  fast::SlideScratch<F> slide_scratch;
  fast::SweepScratch sweep_scratch;
  fast::RobustSweepScratch<F> robust_scratch;
  std::size_t checked = 0, detection_hits = 0, slides_with_contact = 0, robust_with_contact = 0, robust_sweep_hits = 0;
  auto report = [&](const char* algo, std::size_t i, const std::string& diff) {
    std::ostringstream os;
    os.precision(std::numeric_limits<F>::max_digits10);
    const SlideInput<F>& in = inputs[i];
    os << what << " " << algo << " query " << i << ": " << diff << " differs; start " << std::hexfloat << in.start.x << " "
       << in.start.y << " " << in.start.z << " velocity " << in.velocity.x << " " << in.velocity.y << " " << in.velocity.z
       << " gravity " << in.gravity.z << " radius " << in.radii.radii.x;
    BOOST_ERROR(os.str());
  };
  const IndexedMesh<F> espace = inputs.empty() ? mesh : to_espace(mesh, inputs.front().radii);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const SlideInput<F>& in = inputs[i];
    std::string d;
    const SlideResult<F> reference_robust = fast::Robust::run(in, mesh, {}, NullTracer{});
    robust_with_contact += !reference_robust.passes.front().planes.empty();
    d = slide_difference(fast::collide_and_slide<fast::Robust>(robust_world, in, {}, slide_scratch), reference_robust);
    if (!d.empty()) report("robust", i, d);
    const robust::SweepOutcome<F> reference_sweep = robust::sweep(in.start, in.velocity, in.radii, mesh);
    robust_sweep_hits += reference_sweep.hit.has_value();
    d = robust_sweep_difference(fast::sweep_robust(robust_world, in.start, in.velocity, in.radii, robust_scratch),
                                reference_sweep);
    if (!d.empty()) report("sweep robust", i, d);
    const SlideResult<F> reference_fauerby = fast::Fauerby::run(in, mesh, {}, NullTracer{});
    slides_with_contact += !reference_fauerby.passes.front().planes.empty();
    d = slide_difference(fast::collide_and_slide<fast::Fauerby>(world, in, {}, slide_scratch), reference_fauerby);
    if (!d.empty()) report("fauerby", i, d);
    d = slide_difference(fast::collide_and_slide<fast::Linahan>(world, in, {}, slide_scratch),
                         fast::Linahan::run(in, mesh, {}, NullTracer{}));
    if (!d.empty()) report("linahan", i, d);
    d = slide_difference(fast::collide_and_slide<fast::Monter>(world, in, {}, slide_scratch),
                         fast::Monter::run(in, mesh, {}, NullTracer{}));
    if (!d.empty()) report("monter", i, d);
    // The detections alone (every input shares the first one's radius here).
    if (same_bits(in.radii.radii, inputs.front().radii.radii)) {
      const auto packet = fauerby::CollisionPacket<F>::make(to_espace(in.start, in.radii), to_espace(in.velocity, in.radii));
      d = detection_difference(fast::sweep(world, in.start, in.velocity, in.radii, sweep_scratch),
                               fauerby::check_mesh(packet, espace));
      if (!d.empty()) report("sweep fauerby", i, d);
      d = detection_difference(fast::sweep_linahan(world, in.start, in.velocity, in.radii, sweep_scratch),
                               linahan::check_mesh(packet, espace));
      if (!d.empty()) report("sweep linahan", i, d);
      d = detection_difference(fast::sweep_linahan(prepared, in.start, in.velocity, in.radii, sweep_scratch),
                               linahan::check_mesh(packet, espace));
      if (!d.empty()) report("sweep linahan (eSpace cached)", i, d);
      if (fauerby::check_mesh(packet, espace).hit) ++detection_hits;
    }
    ++checked;
  }
  // The comparison means something only if the moves touch the mesh.
  BOOST_TEST_MESSAGE(what << ": " << checked << " queries, " << detection_hits << " detection hits, "
                          << slides_with_contact << " slides with contact, " << robust_with_contact
                          << " robust slides with contact, " << robust_sweep_hits << " robust sweep hits");
  return {checked, detection_hits, slides_with_contact, robust_with_contact, robust_sweep_hits};
}

}  // namespace slidecheck::test
