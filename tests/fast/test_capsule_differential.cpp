// fast/'s robust capsule == the reference's (robust::capsule_collide_and_slide on the whole
// mesh), bit for bit, in float and double: every resting position, sliding plane (triangle,
// feature, origin, normal), iteration count and stop reason (slide_difference), on
// - the capsule corpus's scenes and moves (every canonical and capsule scene, scripted paths and
//   walks of every canonical capsule, at the standard scales and offsets, frames chained);
// - random capsules (any axis direction) on the canonical scenes and on random triangle soups
//   (a RapidCheck property);
// and the batch API, the refusals (seeds, NaN radius), and that the region really is a part of
// the level and grows when the first guess is short.
#include "differential.hpp"
#include <support/draws.hpp>

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/fast/batch.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <boost/mpl/list.hpp>
#include <rapidcheck/boost_test.h>
#include <tbb/global_control.h>

#include <sstream>

using namespace slidecheck;

namespace {

using Precisions = boost::mpl::list<float, double>;

template <class F>
formats::Precision precision_of() {
  return std::is_same_v<F, float> ? formats::Precision::single_float : formats::Precision::double_float;
}

template <class F>
Vec3<F> narrow3(const Vec3<double>& v) {
  return {F(v.x), F(v.y), F(v.z)};
}

template <class F>
std::string describe(const SlideInput<F>& in) {
  std::ostringstream os;
  os << std::hexfloat << "start " << in.start.x << " " << in.start.y << " " << in.start.z << " velocity "
     << in.velocity.x << " " << in.velocity.y << " " << in.velocity.z << " gravity " << in.gravity.x << " "
     << in.gravity.y << " " << in.gravity.z << " radius " << in.capsule->radius << " half axis "
     << in.capsule->half_axis.x << " " << in.capsule->half_axis.y << " " << in.capsule->half_axis.z;
  return os.str();
}

struct Counts {
  std::size_t checked = 0, touched = 0, grown = 0, largest_submesh = 0;
};

/// A first guess of the region without padding (the move's box and the half axis only): nearly
/// every contact is then found by growing the region from the steps' boxes, so the boxes
/// themselves are what is tested.
inline fast::SlideOptions tight_guess() {
  fast::SlideOptions o;
  o.robust_initial_padding_radii = 0;
  return o;
}

/// fast vs reference on one input; the difference's field, empty when equal.
template <class F>
std::string compare_one(const fast::World<F>& world, const IndexedMesh<F>& mesh, const SlideInput<F>& in,
                        fast::SlideScratch<F>& scratch, Counts& c, std::type_identity_t<SlideResult<F>>* fast_out = nullptr,
                        const fast::SlideOptions& options = {}) {
  const SlideResult<F> reference = fast::Robust::run(in, mesh, {}, NullTracer{});
  const SlideResult<F> fast_result = fast::collide_and_slide<fast::Robust>(world, in, {}, scratch, options);
  ++c.checked;
  bool touched = false;
  for (const SlidePass<F>& p : reference.passes) touched |= !p.planes.empty();
  c.touched += touched;
  c.grown += scratch.last_rounds > 1;
  if (!scratch.last_used_whole_mesh) c.largest_submesh = std::max(c.largest_submesh, scratch.submesh.triangle_count());
  if (fast_out) *fast_out = fast_result;
  return test::slide_difference(reference, fast_result);
}

/// Random capsules around a mesh's box: any half axis direction, radius and half axis up to
/// `size`, moves up to `reach`, gravity on half of them.
template <class F>
std::vector<SlideInput<F>> random_capsules(const IndexedMesh<F>& mesh, double size, double reach, std::size_t n,
                                           std::uint64_t seed) {
  const std::vector<SlideInput<F>> spheres = test::random_inputs(mesh, size, reach, n, seed);
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  auto uni = [&](double a, double b) { return a + (b - a) * (double(rng() >> 11) * 0x1p-53); };
  std::vector<SlideInput<F>> out;
  for (const SlideInput<F>& s : spheres) {
    Capsule<F> c{F(uni(0.2, 1.0) * size), {F(0), F(0), F(0)}};
    switch (rng() % 3) {
      case 0: c.half_axis = {F(0), F(0), F(uni(0.1, 1.5) * size)}; break;  // standing
      case 1: c.half_axis = {F(uni(-1, 1) * size), F(0), F(0)}; break;     // lying
      default: c.half_axis = {F(uni(-1, 1) * size), F(uni(-1, 1) * size), F(uni(-1, 1) * size)};
    }
    out.push_back(slide_input_of(s.start, s.velocity, Shape<F>(c), s.gravity));
  }
  return out;
}

/// Every `stride`-th capsule move of the corpus scene `shape` placed at (scale, offset), each frame
/// from the fast run's end (the verifier's chaining), compared frame by frame.
template <class F>
void corpus_scene(const corpora::CanonicalShape& shape, double scale, double offset, std::size_t stride, Counts& c) {
  const formats::Precision precision = precision_of<F>();
  const IndexedMesh<F> mesh =
      convert_mesh<F>(corpora::place_canonical(shape, scale, offset, precision), [](double x) { return F(x); });
  const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
  fast::SlideScratch<F> scratch;
  const auto moves = corpora::place_capsule_moves(corpora::capsule_unit_moves(shape), scale, offset, precision, "s");
  for (std::size_t k = 0; k < moves.size(); k += stride) {
    const formats::Query& q = moves[k];
    const Capsule<double>& body = std::get<Capsule<double>>(q.shape);
    const Capsule<F> capsule{F(body.radius), narrow3<F>(body.half_axis)};
    SlideInput<F> in = slide_input_of(narrow3<F>(q.start), narrow3<F>(q.displacement), Shape<F>(capsule),
                                      narrow3<F>(q.gravity));
    for (int frame = 0; frame < q.frames; ++frame) {
      SlideResult<F> fast_result;
      const std::string d = compare_one(world, mesh, in, scratch, c, &fast_result);
      BOOST_TEST(d.empty(), shape.name << " scale " << scale << " offset " << offset << " " << q.id << " frame "
                                       << frame << ": " << d << " differs; " << describe(in));
      if (!d.empty()) return;
      in.start = fast_result.final_position;
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(capsule_differential)

// The capsule corpus (corpus build --shape capsule): every scene, each at one of the corpus's
// extreme placements in turn (scale 0.01 or 100, offset 0 or 1e6), every third move (the whole
// corpus runs through `verify --implementation fast`, docs/fast.md).
BOOST_AUTO_TEST_CASE_TEMPLATE(capsule_corpus, F, Precisions) {
  Counts c;
  std::vector<const corpora::CanonicalShape*> scenes;
  for (const auto& s : corpora::canonical_shapes()) scenes.push_back(&s);
  for (const auto& s : corpora::capsule_scenes()) scenes.push_back(&s);
  const std::pair<double, double> placements[] = {{0.01, 0.0}, {100.0, 1e6}, {0.01, 1e6}, {100.0, 0.0}};
  for (std::size_t i = 0; i < scenes.size(); ++i) {
    const auto [scale, offset] = placements[i % 4];
    corpus_scene<F>(*scenes[i], scale, offset, test::stride(3), c);
  }
  BOOST_TEST_MESSAGE(c.checked << " capsule frames identical, " << c.touched << " touched the mesh, " << c.grown
                               << " grew the region");
  BOOST_TEST(c.checked > test::draws(500));
  BOOST_TEST(c.touched > c.checked / 4);
}

// Random capsules, any axis, on every canonical scene at three scales and offsets; the sub-mesh
// is a part of the level (the test is not brute force in disguise) and sometimes grows.
BOOST_AUTO_TEST_CASE_TEMPLATE(random_capsules_on_canonical_scenes, F, Precisions) {
  Counts c;
  std::uint64_t seed = 5;
  std::size_t level_triangles = 0;
  for (const corpora::CanonicalShape& shape : corpora::capsule_scenes())
    for (double scale : {0.01, 1.0, 100.0})
      for (double offset : {0.0, 1000.0, 1e6}) {
        const IndexedMesh<F> mesh = convert_mesh<F>(corpora::place_canonical(shape, scale, offset, precision_of<F>()),
                                                    [](double x) { return F(x); });
        level_triangles = std::max(level_triangles, mesh.triangle_count());
        const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
        fast::SlideScratch<F> scratch;
        for (const SlideInput<F>& in : random_capsules(mesh, 0.3 * scale, 2.0 * scale, test::draws(30), seed++))
          for (const fast::SlideOptions& options : {fast::SlideOptions{}, tight_guess()}) {
            const std::string d = compare_one(world, mesh, in, scratch, c, nullptr, options);
            BOOST_TEST(d.empty(), shape.name << " scale " << scale << " offset " << offset << ": " << d
                                             << " differs; " << describe(in));
          }
      }
  BOOST_TEST_MESSAGE(c.checked << " random capsules identical, " << c.touched << " touched, " << c.grown << " grew");
  BOOST_TEST(c.touched > c.checked / 10);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(terrain_submesh_is_a_part_and_grows, F, Precisions) {
  const IndexedMesh<F> mesh =
      convert_mesh<F>(corpora::sine_heightfield(60, 3.0, 0.3, 0.2), [](double x) { return F(x); });
  const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
  fast::SlideScratch<F> scratch;
  Counts c;
  for (const SlideInput<F>& in : random_capsules(mesh, 0.5, 3.0, test::draws(300), 17)) {
    const std::string d = compare_one(world, mesh, in, scratch, c);
    BOOST_TEST(d.empty(), d << " differs; " << describe(in));
  }
  // A long move from a small first guess: the region must grow.
  const fast::SlideOptions tight = tight_guess();
  std::size_t grown = 0;
  for (const SlideInput<F>& in : random_capsules(mesh, 0.5, 3.0, test::draws(60), 18)) {
    const SlideResult<F> f = fast::collide_and_slide<fast::Robust>(world, in, {}, scratch, tight);
    grown += scratch.last_rounds > 1;
    BOOST_TEST(test::slide_difference(fast::Robust::run(in, mesh, {}, NullTracer{}), f).empty(), describe(in));
  }
  BOOST_TEST_MESSAGE(c.checked << " terrain capsules identical, " << c.touched << " touched; largest sub-mesh "
                               << c.largest_submesh << " of " << mesh.triangle_count() << "; " << grown
                               << " of " << test::draws(60) << " grew from a tight guess");
  BOOST_TEST(c.touched > c.checked / 10);
  BOOST_TEST(c.largest_submesh < mesh.triangle_count() / 10);
  BOOST_TEST(grown > 0u);
}

namespace {

/// A random triangle soup and random capsules drawn from `seed`, fast vs reference with the
/// default first guess and the tight one: the first difference's field, empty when all equal.
std::string soup_and_capsules_difference(std::uint64_t seed, bool in_double) {
  std::mt19937_64 rng(seed);
  auto uni = [&](double a, double b) { return a + (b - a) * (double(rng() >> 11) * 0x1p-53); };
  const double scale = std::ldexp(1.0, int(rng() % 17) - 8), offset = (rng() & 1) ? 0.0 : uni(-1e5, 1e5);
  IndexedMesh<double> soup;
  const int triangles = 1 + int(rng() % 40);
  for (int t = 0; t < triangles; ++t) {
    const Vec3<double> c(uni(-4, 4), uni(-4, 4), uni(-1, 1));
    const auto v = static_cast<std::uint32_t>(soup.vertices.size());
    for (int k = 0; k < 3; ++k)
      soup.vertices.push_back(Vec3<double>((c.x + uni(-2, 2)) * scale + offset, (c.y + uni(-2, 2)) * scale + offset,
                                           (c.z + uni(-2, 2)) * scale + offset));
    soup.triangles.push_back({v, v + 1, v + 2});
  }
  auto run = [&]<class F>(std::type_identity<F>) -> std::string {
    const IndexedMesh<F> mesh = convert_mesh<F>(soup, [](double x) { return F(x); });
    const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
    fast::SlideScratch<F> scratch;
    Counts c;
    for (const SlideInput<F>& in : random_capsules(mesh, 0.6 * scale, 3.0 * scale, 8, seed + 1))
      for (const fast::SlideOptions& options : {fast::SlideOptions{}, tight_guess()})
        if (std::string d = compare_one(world, mesh, in, scratch, c, nullptr, options); !d.empty())
          return d + "; " + describe(in);
    return {};
  };
  return in_double ? run(std::type_identity<double>{}) : run(std::type_identity<float>{});
}

}  // namespace

// Random triangle soups and random capsules: fast == reference for every draw.
RC_BOOST_PROP(random_soups_and_capsules_are_identical_in_float_and_double, (std::uint64_t seed, bool in_double)) {
  RC_ASSERT(soup_and_capsules_difference(seed, in_double) == std::string());
}

// Draws the property found: a capsule starting inside a prism is pushed out, and the search for
// cells near the push's end (inside_start.hpp) read triangles outside the region fast/ had built
// from a tight first guess (the end lay beyond the start check's box), so fast/ lost a start
// plane. The search's box is now one the region must hold (trace/read_box.hpp).
BOOST_AUTO_TEST_CASE(cells_near_a_push_out_lie_in_the_region) {
  for (const bool in_double : {false, true}) BOOST_TEST(soup_and_capsules_difference(1850, in_double) == "");
}

// The batch API: capsule_collide_and_slide_batch equals the single calls in input order for 1, 2
// and 4 threads, and a query the reference refuses (NaN radius) throws from the batch too.
BOOST_AUTO_TEST_CASE_TEMPLATE(batch_equals_single_calls, F, Precisions) {
  const IndexedMesh<F> mesh =
      convert_mesh<F>(corpora::sine_heightfield(40, 3.0, 0.3, 0.2), [](double x) { return F(x); });
  const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
  std::vector<fast::CapsuleQuery<F>> queries;
  for (const SlideInput<F>& in : random_capsules(mesh, 0.5, 3.0, test::draws(600), 23))
    queries.push_back({in.start, in.velocity, in.gravity, *in.capsule});
  std::vector<SlideResult<F>> single;
  fast::SlideScratch<F> scratch;
  std::size_t touched = 0;
  for (const auto& q : queries) {
    single.push_back(fast::collide_and_slide<fast::Robust>(world, fast::capsule_input(q), {}, scratch));
    touched += !single.back().passes.front().planes.empty();
  }
  BOOST_TEST(touched > queries.size() / 10);
  for (int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    const auto batch = fast::capsule_collide_and_slide_batch(world, std::span<const fast::CapsuleQuery<F>>(queries));
    BOOST_TEST_REQUIRE(batch.size() == queries.size());
    std::size_t differences = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) differences += !test::slide_difference(batch[i], single[i]).empty();
    BOOST_TEST(differences == 0u, threads << " threads: " << differences << " results differ");
  }
  queries[7].capsule.radius = std::numeric_limits<F>::quiet_NaN();
  BOOST_CHECK_THROW(fast::capsule_collide_and_slide_batch(world, std::span<const fast::CapsuleQuery<F>>(queries)),
                    std::invalid_argument);
}

// Refusals: the seeds run no capsule (neither does the reference); robust refuses what the
// reference refuses (radii other than the capsule's radius), before any work.
BOOST_AUTO_TEST_CASE_TEMPLATE(refusals, F, Precisions) {
  const IndexedMesh<F> mesh =
      convert_mesh<F>(corpora::sine_heightfield(10, 3.0, 0.3, 0.2), [](double x) { return F(x); });
  const fast::World<F> seeds = fast::World<F>::build(mesh);
  const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
  fast::SlideScratch<F> scratch;
  SlideInput<F> in = random_capsules(mesh, 0.5, 3.0, 1, 3).front();
  BOOST_CHECK_THROW(fast::collide_and_slide<fast::Fauerby>(seeds, in, {}, scratch), std::invalid_argument);
  BOOST_CHECK_THROW(fast::collide_and_slide<fast::Linahan>(seeds, in, {}, scratch), std::invalid_argument);
  BOOST_CHECK_THROW(fast::collide_and_slide<fast::Monter>(seeds, in, {}, scratch), std::invalid_argument);
  BOOST_CHECK_NO_THROW(fast::collide_and_slide<fast::Robust>(world, in, {}, scratch));
  in.radii.radii.y = in.radii.radii.y * F(2);
  BOOST_CHECK_THROW(fast::Robust::run(in, mesh, {}, NullTracer{}), std::invalid_argument);
  BOOST_CHECK_THROW(fast::collide_and_slide<fast::Robust>(world, in, {}, scratch), std::invalid_argument);
  // A sphere input on the same world still runs the sphere (no capsule field: the sphere's pass).
  SlideInput<F> sphere = in;
  sphere.capsule.reset();
  sphere.radii.radii.y = sphere.radii.radii.x;
  BOOST_TEST(test::slide_difference(fast::collide_and_slide<fast::Robust>(world, sphere, {}, scratch),
                                    robust::collide_and_slide(sphere, mesh))
                 .empty());
}

BOOST_AUTO_TEST_SUITE_END()

// verify --implementation fast routes robust's capsule queries to fast/ (verify_query.cpp): a
// capsule on a floor large enough that the reference's run is culled is compared, not skipped,
// with no fast_mismatch and the reference's failures; moved by one ulp (the test hook) it is a
// fast_mismatch.
BOOST_AUTO_TEST_CASE(verify_implementation_fast_compares_capsules) {
  using namespace slidecheck::verify;
  Scene s;
  s.name = "floor";
  s.units = "meter";
  const int k = 40;
  for (int y = 0; y <= k; ++y)
    for (int x = 0; x <= k; ++x) s.mesh.vertices.push_back({double(x - k / 2), double(y - k / 2), 0.0});
  const auto v = [k](int x, int y) { return static_cast<std::uint32_t>(y * (k + 1) + x); };
  for (int y = 0; y < k; ++y)
    for (int x = 0; x < k; ++x) {
      s.mesh.triangles.push_back({v(x, y), v(x + 1, y), v(x + 1, y + 1)});
      s.mesh.triangles.push_back({v(x, y), v(x + 1, y + 1), v(x, y + 1)});
    }
  const SceneContext scene("floor", std::move(s));
  formats::Query q;
  q.id = "capsule";
  q.scene = "(memory)";
  q.algorithm = Algorithm::robust;
  q.start = {0.25, 0.125, 1.5};
  q.displacement = {1.5, 0.75, -1.25};
  q.gravity = {0, 0, -0.5};
  q.shape = Capsule<double>{0.5, {0.25, 0, 0.75}};
  q.frames = 3;
  VerifyQueryOptions fast_options;
  fast_options.implementation = Implementation::fast;
  for (const Precision p : {Precision::single_float, Precision::double_float}) {
    const QueryRecord ref = verify_query(scene, q, "test", Algorithm::robust, p);
    const QueryRecord fast = verify_query(scene, q, "test", Algorithm::robust, p, fast_options);
    BOOST_TEST(fast.fast_skipped.empty(), fast.fast_skipped);
    BOOST_TEST(!fast.has(FailureClass::fast_mismatch));
    BOOST_TEST(fast.failures.size() == ref.failures.size());
    BOOST_TEST(!fast.run_triangles.empty());  // culled: the planes' triangles were mapped back
    VerifyQueryOptions moved = fast_options;
    moved.fast_offset_for_testing = Vec3<double>(0, 0, p == Precision::single_float ? 0x1p-20 : 0x1p-49);
    BOOST_TEST(verify_query(scene, q, "test", Algorithm::robust, p, moved).has(FailureClass::fast_mismatch));
  }
}
