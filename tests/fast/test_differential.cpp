// fast == reference, bit for bit, in the same precision: final positions, every resting
// position, sliding planes (triangle, feature, origin, normal), iterations and stop reasons of
// robust, fauerby, linahan and monter's collide-and-slide, and the fauerby and linahan detections, in
// float and double, on every canonical shape at several scales and offsets from the origin
// (the canonical movement corpus) and on a 20,000-triangle float terrain.
// Also: the region of collide_and_slide really grows (a long move from a small first guess),
// and the sub-mesh really is smaller than the level (so the test is not brute force in disguise).
#include "differential.hpp"
#include <support/draws.hpp>

#include <slidecheck/corpora/canonical_scenes.hpp>

using namespace slidecheck;

namespace {

template <class F>
IndexedMesh<F> to_precision(const IndexedMesh<double>& m) {
  return convert_mesh<F>(m, [](double x) { return F(x); });
}

template <class F>
void canonical_corpus(formats::Precision precision) {
  test::DifferentialCounts counts;
  std::uint64_t seed = 11;
  for (const corpora::CanonicalShape& shape : corpora::canonical_shapes())
    for (double scale : {0.01, 1.0, 100.0})
      for (double offset : {0.0, 1000.0, 1e6}) {
        const IndexedMesh<F> mesh = to_precision<F>(corpora::place_canonical(shape, scale, offset, precision));
        const auto inputs = test::random_inputs(mesh, 0.3 * scale, 2.0 * scale, test::draws(40), seed++);
        counts += test::check_fast_equals_reference(mesh, inputs, shape.name + " scale " + std::to_string(scale) +
                                                                       " offset " + std::to_string(offset));
      }
  BOOST_TEST_MESSAGE(counts.checked << " queries identical in 4 responses and 4 detections; " << counts.detection_hits
                                    << " detections hit, " << counts.slides_with_contact << " slides touched");
  BOOST_TEST(counts.checked == 9u * test::draws(40) * corpora::canonical_shapes().size());
  BOOST_TEST(counts.detection_hits > counts.checked / 10);
  BOOST_TEST(counts.slides_with_contact > counts.checked / 10);
  BOOST_TEST(counts.robust_with_contact > counts.checked / 10);
  BOOST_TEST(counts.robust_sweep_hits > counts.checked / 10);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fast_differential)

BOOST_AUTO_TEST_CASE(canonical_corpus_float) { canonical_corpus<float>(formats::Precision::single_float); }
BOOST_AUTO_TEST_CASE(canonical_corpus_double) { canonical_corpus<double>(formats::Precision::double_float); }

BOOST_AUTO_TEST_CASE(float_terrain) {
  const IndexedMesh<float> mesh = to_precision<float>(corpora::sine_heightfield(100, 4.0, 0.3, 0.2));
  BOOST_TEST(mesh.triangle_count() == 20000u);
  const auto inputs = test::random_inputs(mesh, 0.5, 3.0, test::draws(150), 7);
  const test::DifferentialCounts c = test::check_fast_equals_reference(mesh, inputs, "terrain");
  BOOST_TEST(c.checked == inputs.size());
  BOOST_TEST(c.slides_with_contact > test::draws(10));
  // The sub-mesh is a small part of the level.
  const fast::World<float> world = fast::World<float>::build(mesh);
  fast::SlideScratch<float> scratch;
  std::size_t largest = 0;
  for (const auto& in : inputs) {
    fast::collide_and_slide<fast::Fauerby>(world, in, {}, scratch);
    largest = std::max(largest, scratch.submesh.triangle_count());
    BOOST_TEST(!scratch.last_used_whole_mesh);
  }
  BOOST_TEST(largest < mesh.triangle_count() / 20);
  // So is robust's, on an exact-only world (no always-candidates).
  const fast::World<float> robust_world = fast::World<float>::build(mesh, fast::robust_world_options());
  BOOST_TEST(robust_world.bvh.always_candidates.empty());
  largest = 0;
  for (const auto& in : inputs) {
    fast::collide_and_slide<fast::Robust>(robust_world, in, {}, scratch);
    largest = std::max(largest, scratch.submesh.triangle_count());
    BOOST_TEST(!scratch.last_used_whole_mesh);
  }
  BOOST_TEST(largest < mesh.triangle_count() / 20);
}

BOOST_AUTO_TEST_CASE(double_terrain_with_far_offset) {
  IndexedMesh<double> mesh = corpora::sine_heightfield(40, 4.0, 0.3, 0.2);
  for (auto& v : mesh.vertices) v = v + Vec3<double>(1e5, -3e5, 17);
  const auto inputs = test::random_inputs(mesh, 0.5, 3.0, test::draws(100), 8);
  const test::DifferentialCounts c = test::check_fast_equals_reference(mesh, inputs, "far terrain");
  BOOST_TEST(c.checked == inputs.size());
  BOOST_TEST(c.slides_with_contact > test::draws(10));
}

BOOST_AUTO_TEST_CASE(the_region_grows_when_the_first_guess_is_too_small) {
  // A sphere sliding down a long ramp: with no padding the first region cannot hold the
  // slide's later queries, the region must grow, and the result still equals the reference.
  const IndexedMesh<float> mesh = to_precision<float>(corpora::sine_heightfield(30, 2.0, 0.5, 0.4));
  const fast::World<float> world = fast::World<float>::build(mesh);
  fast::SlideScratch<float> scratch;
  fast::SlideOptions tight;
  tight.initial_padding_radii = 0;
  int grown = 0;
  for (const auto& in : test::random_inputs(mesh, 0.5, 6.0, test::draws(60), 9)) {
    const SlideResult<float> fast_result = fast::collide_and_slide<fast::Fauerby>(world, in, {}, scratch, tight);
    grown += scratch.last_rounds > 1;
    BOOST_TEST(test::slide_difference(fast_result, fast::Fauerby::run(in, mesh, {}, NullTracer{})).empty());
  }
  BOOST_TEST_MESSAGE(grown << " of " << test::draws(60) << " queries needed a larger region");
  BOOST_TEST(grown > 0);
}

BOOST_AUTO_TEST_CASE(robust_region_grows_and_ellipsoids_are_covered) {
  // Robust's boxes are exact, so any ellipsoid may query a world (the seeds' float-faithful
  // slack covers spheres only). A tight first region must grow for a long slide.
  const IndexedMesh<float> mesh = to_precision<float>(corpora::sine_heightfield(30, 2.0, 0.5, 0.4));
  const fast::World<float> world = fast::World<float>::build(mesh, fast::robust_world_options());
  fast::SlideScratch<float> scratch;
  fast::SlideOptions tight;
  tight.robust_initial_padding_radii = 0;
  int grown = 0, touched = 0;
  std::size_t i = 0;
  for (auto in : test::random_inputs(mesh, 0.5, 6.0, test::draws(60), 10)) {
    if (i++ % 2) in.radii = {{0.25f, 0.7f, 0.4f}};
    const SlideResult<float> reference = fast::Robust::run(in, mesh, {}, NullTracer{});
    touched += !reference.passes.front().planes.empty();
    const SlideResult<float> fast_result = fast::collide_and_slide<fast::Robust>(world, in, {}, scratch, tight);
    grown += scratch.last_rounds > 1;
    const std::string d = test::slide_difference(fast_result, reference);
    BOOST_TEST(d.empty(), "query " << i - 1 << ": " << d);
  }
  BOOST_TEST_MESSAGE(grown << " of " << test::draws(60) << " robust queries needed a larger region, " << touched << " touched");
  BOOST_TEST(grown > 0);
  BOOST_TEST(touched > 5);
}

BOOST_AUTO_TEST_CASE(robust_world_box_holds_the_local_frame_rounding) {
  // A vertex whose local eSpace coordinate fl(fl(v - o) / r) is inside a local box lies in the
  // R3 box robust_world_box maps it to: random vertices, origins and radii, far from the origin.
  std::mt19937_64 rng(12);
  auto uni = [&](double a, double b) { return a + (b - a) * (double(rng() >> 11) * 0x1p-53); };
  int inside = 0;
  for (int k = 0; k < 20000; ++k) {
    const double magnitude = std::ldexp(1.0, int(uni(-10, 24)));
    const Vec3<float> o{float(uni(-magnitude, magnitude)), float(uni(-magnitude, magnitude)),
                        float(uni(-magnitude, magnitude))};
    const EllipsoidRadii<float> radii{{float(uni(0.01, 50)), float(uni(0.01, 50)), float(uni(0.01, 50))}};
    const Vec3<float> v{float(o.x + uni(-100, 100)), float(o.y + uni(-100, 100)), float(o.z + uni(-100, 100))};
    const Vec3<float> local = to_espace(Vec3<float>(v - o), radii);
    // The degenerate box at the local point itself: the tightest box that must keep v.
    const exact::Box q = exact::swept_box(local, Vec3<float>(0, 0, 0), Vec3<float>(0, 0, 0));
    const fast::Aabb<float> w = fast::slide_detail::robust_world_box(q, o, radii);
    const bool ok = w.lo.x <= v.x && v.x <= w.hi.x && w.lo.y <= v.y && v.y <= w.hi.y && w.lo.z <= v.z && v.z <= w.hi.z;
    BOOST_TEST(ok, "vertex " << std::hexfloat << v.x << " " << v.y << " " << v.z << " outside its world box");
    inside += ok;
  }
  BOOST_TEST(inside == 20000);
}

BOOST_AUTO_TEST_SUITE_END()

// Robust's axis locks (a gap exactly 2r wide: corpora/regressions/robust-gap-exactly-2r) read
// the stored triangles of the sub-mesh; fast/ must still take every decision the reference
// takes. Tangent moves along a slot, rising, dropping into it and sideways against its walls,
// in float and double, radius 1 (the gap's half width) and a little less and more.
template <class F>
void slot_exactly_two_radii_wide() {
  IndexedMesh<F> mesh;
  auto quad = [&](double ax, double ay, double az, double bx, double by, double bz, double cx, double cy, double cz,
                  double dx, double dy, double dz) {
    const auto i = static_cast<std::uint32_t>(mesh.vertices.size());
    mesh.vertices.push_back(Vec3<F>(F(ax), F(ay), F(az)));
    mesh.vertices.push_back(Vec3<F>(F(bx), F(by), F(bz)));
    mesh.vertices.push_back(Vec3<F>(F(cx), F(cy), F(cz)));
    mesh.vertices.push_back(Vec3<F>(F(dx), F(dy), F(dz)));
    mesh.triangles.push_back({i, i + 1, i + 2});
    mesh.triangles.push_back({i, i + 2, i + 3});
  };
  quad(-1, -8, -1, -1, 8, -1, -1, 8, 2, -1, -8, 2);
  quad(1, -8, -1, 1, 8, -1, 1, 8, 2, 1, -8, 2);
  quad(-1, -8, -1, 1, -8, -1, 1, 8, -1, -1, 8, -1);
  quad(-5, -8, 2, -1, -8, 2, -1, 8, 2, -5, 8, 2);
  quad(1, -8, 2, 5, -8, 2, 5, 8, 2, 1, 8, 2);
  std::vector<SlideInput<F>> inputs;
  const Vec3<F> none(F(0), F(0), F(0));
  for (const double r : {1.0, 0.999, 1.001})
    for (const auto& [start, move, gravity] :
         {std::tuple{Vec3<F>(0, -4, 0), Vec3<F>(0, 6, 0), none}, std::tuple{Vec3<F>(0, -4, 0), Vec3<F>(0, 6, 1.5), none},
          std::tuple{Vec3<F>(0, -4, 3.5), Vec3<F>(0, 3, -3), none}, std::tuple{Vec3<F>(0, -4, 0.5), Vec3<F>(0.5, 3, 0), Vec3<F>(0, 0, -1)},
          std::tuple{Vec3<F>(-3, -4, 3.5), Vec3<F>(3, 3, -3), Vec3<F>(0, 0, -2)}}) {
      const F rr = F(r);
      inputs.push_back({start, move, {Vec3<F>(rr, rr, rr)}, gravity});
    }
  const test::DifferentialCounts c = test::check_fast_equals_reference(mesh, inputs, "slot");
  BOOST_TEST(c.checked == inputs.size());
}

BOOST_AUTO_TEST_CASE(slot_exactly_two_radii_wide_float) { slot_exactly_two_radii_wide<float>(); }
BOOST_AUTO_TEST_CASE(slot_exactly_two_radii_wide_double) { slot_exactly_two_radii_wide<double>(); }
