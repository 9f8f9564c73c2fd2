// robust's float capsule where float's grid is coarse against the capsule, in the canonical
// corners and wedges (the scenes' float vertices, 10^4 and 10^6 from the origin): it neither hops
// off a contact it rests on exactly, nor is held far back in an acute wedge, nor stops at an
// overhang's edge it slides past. Each was a level C verdict of `slidecheck rate --shape capsule`
// (corpora/regressions/robust-float-capsule-wedges has the cases; docs/robust.md, Capsules).
#include <slidecheck/reference/response/robust/capsule.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>

#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <cmath>
#include <vector>

using namespace slidecheck;

namespace {

/// Quads as the canonical scenes store them: vertices a b c d, triangles (d c b) and (d b a).
IndexedMesh<float> quads(const std::vector<std::array<Vec3<float>, 4>>& qs) {
  IndexedMesh<float> m;
  for (const auto& q : qs) {
    const auto k = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), q.begin(), q.end());
    m.triangles.push_back({k + 3, k + 2, k + 1});
    m.triangles.push_back({k + 3, k + 1, k});
  }
  return m;
}

SlideResult<float> slide(const IndexedMesh<float>& m, Vec3<float> start, Vec3<float> move, float r, Vec3<float> h,
                         Vec3<float> gravity = {0, 0, 0}) {
  return robust::capsule_collide_and_slide(slide_input_of<float>(start, move, Shape<float>(Capsule<float>{r, h}), gravity),
                                           m);
}

bool held(const SlideResult<float>& res) {
  for (const auto& p : res.passes)
    if (p.stop == StopReason::held_by_rounding) return true;
  return false;
}

/// The canonical acute corner (a floor and a wall leaning over it at about 1:4) at `offset`,
/// `scale` 0.1 or 1, as the float scene holds it.
IndexedMesh<float> acute_corner_s01_o1e4() {
  const float a = 0x1.38799ap+13f, b = 0x1.388p+13f, lo = 0x1.387e66p+13f, hi = 0x1.38819ap+13f;
  return quads({{{{a, hi, b}, {b, hi, b}, {b, lo, b}, {a, lo, b}}}, {{{b, hi, b}, {a, hi, hi}, {a, lo, hi}, {b, lo, b}}}});
}
IndexedMesh<float> acute_corner_s1_o1e4() {
  const float a = 0x1.384p+13f, b = 0x1.388p+13f, lo = 0x1.387p+13f, hi = 0x1.389p+13f;
  return quads({{{{a, hi, b}, {b, hi, b}, {b, lo, b}, {a, lo, b}}}, {{{b, hi, b}, {a, hi, hi}, {a, lo, hi}, {b, lo, b}}}});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_capsule_wedges)

// A standing capsule (r = 0.375, half axis 0.625) touching the floor and both walls of the room
// corner 10^6 from the origin exactly (every coordinate a float, spacing 0.0625): pushed on into
// the corner it stays. Its prism's floor cap is -1/0.375 + 0.625/0.375 in double, 2^-52 off, so
// its own start lay inside the cap's half-space by that, and it hopped an ulp up (level C jitter,
// every other frame) before the write-back allowed the pass's gap for staying put.
BOOST_AUTO_TEST_CASE(resting_exactly_in_a_far_room_corner_it_stays) {
  const float o = 0x1.e848p+19f, f = 0x1.e8488p+19f;
  const IndexedMesh<float> room = quads({{{{o, f, o}, {f, f, o}, {f, o, o}, {o, o, o}}},
                                         {{{o, o, f}, {o, f, f}, {o, f, o}, {o, o, o}}},
                                         {{{f, o, o}, {f, o, f}, {o, o, f}, {o, o, o}}}});
  const Vec3<float> corner(0x1.e8480cp+19f, 0x1.e8480cp+19f, 0x1.e8482p+19f);  // 10^6 + (0.375, 0.375, 1)
  for (const Vec3<float> move : {Vec3<float>(-2, -2, -1), Vec3<float>(0, 0, -1), Vec3<float>(-1, 0, 0)}) {
    const SlideResult<float> res = slide(room, corner, move, 0.375f, Vec3<float>(0, 0, 0.625f));
    BOOST_TEST(res.final_position.x == corner.x);
    BOOST_TEST(res.final_position.y == corner.y);
    BOOST_TEST(res.final_position.z == corner.z);
    BOOST_TEST(!held(res));
  }
}

// A tilted capsule slid into the acute corner at scale 0.1, 10^4 from the origin (float spacing
// 2^-10, 0.04 radii): where it comes to rest touching both, lifting its axis one ulp off the floor
// needs it four ulps back from the wall, beyond the second ring; the pass was held 25 ulps back,
// at the point written back before (lost_motion). Now it ends at the nearest clear float position,
// 4.9 ulps behind the ideal end (level C: x = 0x1.387bc7bcff9cap+13).
BOOST_AUTO_TEST_CASE(slid_into_an_acute_wedge_it_is_not_held_far_back) {
  const SlideResult<float> res =
      slide(acute_corner_s01_o1e4(), Vec3<float>(0x1.387b34p+13f, 0x1.388p+13f, 0x1.38808cp+13f),
            Vec3<float>(0x1.99999ap-2f, 0, 0), 0x1.99999ap-6f, Vec3<float>(0x1.99999ap-6f, 0x1.99999ap-7f, 0x1.333334p-5f),
            Vec3<float>(0, 0, -0x1.0bc974p-6f));
  BOOST_TEST(!held(res));
  const double ideal_x = 0x1.387bc7bcff9cap+13;
  BOOST_TEST(double(res.final_position.x) <= ideal_x);
  BOOST_TEST(ideal_x - double(res.final_position.x) < 6 * 0x1p-10);
}

// A lying capsule (axis along the overhang's own horizontal direction, so its prism's side quads
// are coplanar with its caps) pushed up under the overhang of the acute corner at scale 1, 10^4
// from the origin, from a start written back inside its band (as the frame before ended): the
// push-out was shorter than s/8 and was spread over the slide, and the capsule met the overhang's
// top edge below its stop, travelling 0.460 where the ideal run from the same start travels
// 0.48507 (level C, anchored frame 4). Pushed out first, it slides past the edge as the ideal does.
BOOST_AUTO_TEST_CASE(sliding_up_under_an_overhang_it_passes_the_top_edge) {
  const Vec3<float> start(0x1.3842bp+13f, 0x1.388p+13f, 0x1.388d42p+13f);
  const SlideResult<float> res =
      slide(acute_corner_s1_o1e4(), start, Vec3<float>(0, 0, 2), 0.25f, Vec3<float>(0, 0.5f, 0));
  const Vec3<double> d(double(res.final_position.x) - double(start.x), double(res.final_position.y) - double(start.y),
                       double(res.final_position.z) - double(start.z));
  const double travel = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  // The ideal travel, less two float ulps (2^-10 each) of rounding.
  BOOST_TEST(travel > 0x1.f0b6d29bc97aep-2 - 2 * 0x1p-10);
}

BOOST_AUTO_TEST_SUITE_END()
