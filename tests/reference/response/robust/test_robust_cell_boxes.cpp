// robust/cell_boxes.hpp: a cell's box holds each of its triangles' boxes (a prism's, from its
// caps, is the box of all eight), so a swept box that
// misses the cell misses every triangle of it (exact::may_touch false), NaN coordinates included;
// its magnitude bounds each triangle's, so a cell the slab filter rejects has each triangle
// rejected (slab_filter.hpp, skip_passed_cell); and the mesh loops that skip cells find what
// they find without them and what the sweep's definition finds (index order, no filter): the
// first blocking contact and the skin over random prism meshes (random triangles, half axes and
// moves, near and far from the origin), in float and double, as RapidCheck properties.
#include <slidecheck/reference/response/robust/capsule.hpp>
#include <slidecheck/reference/response/robust/cell_boxes.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/slab_filter.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <limits>
#include <optional>

using namespace slidecheck;

namespace {

template <class T>
Vec3<T> point(double scale, double offset) {
  auto c = [&] { return T(offset + scale * (*rc::gen::inRange(-1 << 16, 1 << 16) / double(1 << 16))); };
  return {c(), c(), c()};
}

/// A random mesh of 1 to 12 triangles around the origin shifted by `offset`, scale `scale`.
template <class T>
IndexedMesh<T> random_mesh(double scale, double offset) {
  IndexedMesh<T> m;
  const int n = *rc::gen::inRange(1, 13);
  for (int i = 0; i < n; ++i) {
    const auto first = static_cast<std::uint32_t>(m.vertices.size());
    for (int k = 0; k < 3; ++k) m.vertices.push_back(point<T>(scale, offset));
    m.triangles.push_back({first, first + 1, first + 2});
  }
  return m;
}

template <class T>
void misses_mean_each_triangle_missed() {
  const double offset = *rc::gen::element(0.0, 100.0, 1e4);
  const IndexedMesh<T> mesh = robust::prism_mesh(random_mesh<T>(4, offset), point<T>(2, 0));
  const robust::CellBoxes cells = robust::prism_cell_boxes(mesh);
  RC_ASSERT(cells.boxes.size() == mesh.triangle_count() / robust::prism_triangles);
  // A prism's box from its caps is the box of all eight of its triangles.
  const robust::CellBoxes all = robust::cell_boxes(mesh, robust::prism_triangles, robust::prism_triangles);
  for (std::size_t j = 0; j < cells.boxes.size(); ++j) {
    RC_ASSERT(cells.boxes[j].lo == all.boxes[j].lo);
    RC_ASSERT(cells.boxes[j].hi == all.boxes[j].hi);
  }
  const Vec3<T> c = point<T>(6, offset), m = point<T>(3, 0);
  const double r = *rc::gen::inRange(1, 64) / 16.0;
  const exact::Box swept = exact::swept_box(c, m, Vec3<T>(T(r), T(r), T(r)));
  int missed = 0;
  for (std::size_t j = 0; j < cells.boxes.size(); ++j) {
    if (!cells.misses(j, swept)) continue;
    ++missed;
    for (std::size_t k = 0; k < robust::prism_triangles; ++k)
      RC_ASSERT(!exact::may_touch(swept, mesh.triangle(j * robust::prism_triangles + k)));
  }
  RC_CLASSIFY(missed > 0, "some cell missed");
}

template <class T>
void a_passed_cell_has_every_triangle_rejected() {
  const double offset = *rc::gen::element(0.0, 100.0, 1e4);
  const IndexedMesh<T> mesh = robust::prism_mesh(random_mesh<T>(4, offset), point<T>(2, 0));
  const robust::CellBoxes cells = robust::prism_cell_boxes(mesh);
  RC_ASSERT(cells.magnitudes.size() == cells.boxes.size());
  // A long move across the mesh: its box meets cells its sphere passes far from.
  const Vec3<T> c = point<T>(8, offset), m = point<T>(16, 0);
  const T r = T(*rc::gen::inRange(1, 16) / 16.0);
  const robust::SlabFilter<T> slabs(c, m, r);
  int passed = 0;
  for (std::size_t j = 0; j < cells.boxes.size(); ++j) {
    for (std::size_t k = 0; k < robust::prism_triangles; ++k)
      RC_ASSERT(T(cells.magnitudes[j]) >= robust::SlabFilter<T>::vertex_magnitude(mesh.triangle(j * robust::prism_triangles + k)));
    std::size_t i = j * robust::prism_triangles;
    if (!robust::skip_passed_cell(&cells, i, slabs)) continue;
    RC_ASSERT(i == (j + 1) * robust::prism_triangles - 1);
    ++passed;
    for (std::size_t k = 0; k < robust::prism_triangles; ++k) {
      const Triangle<T> tri = mesh.triangle(j * robust::prism_triangles + k);
      T lo[3], hi[3];
      robust::detection_detail::triangle_box(tri, lo, hi);
      RC_ASSERT(!slabs.may_block(lo, hi, robust::SlabFilter<T>::vertex_magnitude(tri)));
    }
  }
  RC_CLASSIFY(passed > 0, "some cell passed by");
}

template <class T>
void loops_find_the_same_with_cells() {
  const double offset = *rc::gen::element(0.0, 100.0, 1e4);
  const IndexedMesh<T> mesh = robust::prism_mesh(random_mesh<T>(4, offset), point<T>(1, 0));
  const robust::CellBoxes cells = robust::prism_cell_boxes(mesh);
  const Vec3<T> c = point<T>(6, offset), m = point<T>(4, 0);
  const T r(1);
  const auto with = robust::first_blocking_contact(c, m, r, mesh, robust::SweepEveryTriangle{},
                                                   robust::TriangleStartPlane{}, &cells);
  const auto without = robust::first_blocking_contact(c, m, r, mesh);
  RC_ASSERT(with.has_value() == without.has_value());
  if (with) {
    RC_ASSERT(with->triangle == without->triangle);
    RC_ASSERT(with->time == without->time);
    RC_ASSERT(with->contact_point == without->contact_point);
  }
  // The definition: every triangle in index order, no filter, no cells, no early stop.
  const auto defined = robust::first_blocking_contact_in_index_order(c, m, r, mesh);
  RC_ASSERT(with.has_value() == defined.has_value());
  if (with) {
    RC_ASSERT(with->triangle == defined->triangle);
    RC_ASSERT(with->time == defined->time);
  }
  RC_CLASSIFY(with.has_value(), "a contact");
  const robust::Tolerances tol;
  const robust::Skin<T> a = robust::derive_skin(c, m, tol, &mesh, T(0), num::unit_roundoff<T>(), &cells);
  const robust::Skin<T> b = robust::derive_skin(c, m, tol, &mesh);
  RC_ASSERT(a.contact_radius == b.contact_radius);
  RC_ASSERT(a.max_deviation == b.max_deviation);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_cell_boxes)

BOOST_AUTO_TEST_CASE(a_cell_box_holds_its_triangles_and_skips_nan_as_they_do) {
  IndexedMesh<double> mesh;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, nan}, {5, 5, 5}, {6, 5, 5}, {5, 6, 6}};
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}};
  const robust::CellBoxes cells = robust::cell_boxes(mesh, 2, 2);
  BOOST_TEST_REQUIRE(cells.boxes.size() == 1u);
  BOOST_TEST(cells.boxes[0].lo[0] == 0.0);
  BOOST_TEST(cells.boxes[0].hi[0] == 6.0);
  BOOST_TEST(cells.boxes[0].lo[2] == 0.0);  // the NaN skipped, as may_touch skips it
  BOOST_TEST(cells.boxes[0].hi[2] == 6.0);
  exact::Box far;
  far.lo = {10, 10, 10};
  far.hi = {11, 11, 11};
  BOOST_TEST(cells.misses(0, far));
  std::size_t i = 0;
  BOOST_TEST(robust::skip_missed_cell(&cells, i, far));
  BOOST_TEST(i == 1u);  // the cell's last triangle: the loop's ++i goes on past it
  exact::Box near;
  near.lo = {5.5, 5.5, 5.5};
  near.hi = {5.6, 5.6, 5.6};
  i = 0;
  BOOST_TEST(!robust::skip_missed_cell(&cells, i, near));
  BOOST_TEST(!robust::skip_missed_cell(nullptr, i, far));
  // The magnitude: NaN when a coordinate is, so the slab filter never skips the cell.
  BOOST_TEST(std::isnan(cells.magnitudes[0]));
  mesh.vertices[2].z = -7;
  BOOST_TEST(robust::cell_boxes(mesh, 2, 2).magnitudes[0] == 7.0);
  const robust::SlabFilter<double> slabs({-100, -90, 0}, {200, 200, 0}, 1);
  const robust::CellBoxes nan_cells = robust::cell_boxes(IndexedMesh<double>{{{0, 0, 0}, {1, 0, 0}, {0, 1, nan}}, {{0, 1, 2}}}, 1, 1);
  i = 0;
  BOOST_TEST(!robust::skip_passed_cell(&nan_cells, i, slabs));
  const robust::CellBoxes far_cells = robust::cell_boxes(IndexedMesh<double>{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}}, 1, 1);
  BOOST_TEST(robust::skip_passed_cell(&far_cells, i, slabs));  // x and y near it at different times
}

RC_BOOST_PROP(a_missed_cell_has_every_triangle_missed_float, ()) { misses_mean_each_triangle_missed<float>(); }
RC_BOOST_PROP(a_missed_cell_has_every_triangle_missed_double, ()) { misses_mean_each_triangle_missed<double>(); }
// Double only: float's margin, 2^-1 (1 + 2M)^2, exceeds every distance in a mesh of magnitude
// M, so it rejects no cell (robust computes float queries in double).
RC_BOOST_PROP(a_passed_by_cell_has_every_triangle_rejected_double, ()) { a_passed_cell_has_every_triangle_rejected<double>(); }
RC_BOOST_PROP(the_sweep_and_the_skin_are_the_same_with_cells_float, ()) { loops_find_the_same_with_cells<float>(); }
RC_BOOST_PROP(the_sweep_and_the_skin_are_the_same_with_cells_double, ()) { loops_find_the_same_with_cells<double>(); }

BOOST_AUTO_TEST_SUITE_END()
