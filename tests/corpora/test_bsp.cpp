// The IBSP reader and the two soups on a synthetic map written by the test, and the reader
// against malformed files: every defect must give a FormatError naming the file and place.
#include "synthetic_bsp.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/errors.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace slidecheck;
using namespace slidecheck::corpora;
using bsp::Lump;
using test::make_synthetic_bsp;
using test::kSlopeY;
using test::kSlopeZ;

namespace {

bsp::BspFile parse(const std::vector<std::uint8_t>& bytes) { return bsp::parse_bsp(bytes, "synthetic.bsp"); }

/// Parses `bytes` expecting a FormatError whose message contains every one of `parts`.
void expect_error(const std::vector<std::uint8_t>& bytes, std::initializer_list<std::string> parts) {
  try {
    parse(bytes);
    BOOST_ERROR("no error; expected one mentioning '" << *parts.begin() << "'");
  } catch (const FormatError& e) {
    const std::string what = e.what();
    BOOST_TEST_MESSAGE("error as expected: " << what);
    BOOST_TEST(what.rfind("synthetic.bsp: ", 0) == 0, what);
    for (const std::string& p : parts) BOOST_TEST(what.find(p) != std::string::npos, "'" << p << "' in: " << what);
  }
}

/// Each brush's triangles: every directed edge (a, b) appears once and (b, a) once, i.e. the
/// brush is a closed, consistently oriented 2-manifold in its exact vertex indices.
void check_closed(const BrushSoup& soup) {
  std::map<std::uint32_t, std::map<std::pair<std::uint32_t, std::uint32_t>, int>> edges;
  for (std::size_t t = 0; t < soup.mesh.triangle_count(); ++t) {
    const auto& tri = soup.mesh.triangles[t];
    BOOST_TEST_REQUIRE((tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2]));
    for (int k = 0; k < 3; ++k) ++edges[soup.brush_of_triangle[t]][{tri[std::size_t(k)], tri[std::size_t((k + 1) % 3)]}];
  }
  std::size_t bad = 0;
  for (const auto& [brush, directed] : edges)
    for (const auto& [e, count] : directed) {
      const auto back = directed.find({e.second, e.first});
      if (count != 1 || back == directed.end() || back->second != 1) ++bad;
    }
  BOOST_TEST(bad == 0u, bad << " directed edges not matched exactly once by their reverse");
}

/// The exact vertices are pairwise distinct, and each double is within half an ulp of its
/// exact value (the rounding is correct to nearest).
void check_vertices(const BrushSoup& soup) {
  BOOST_TEST_REQUIRE(soup.exact_vertices.size() == soup.mesh.vertices.size());
  std::set<std::tuple<Rational, Rational, Rational>> seen;
  for (std::size_t i = 0; i < soup.exact_vertices.size(); ++i) {
    const Vec3<Rational>& e = soup.exact_vertices[i];
    BOOST_TEST(seen.insert({e.x, e.y, e.z}).second, "vertex " << i << " repeated");
    const Vec3<double>& d = soup.mesh.vertices[i];
    for (auto [exact, rounded] : {std::pair{&e.x, d.x}, {&e.y, d.y}, {&e.z, d.z}}) {
      const Rational error = abs(Rational(rounded) - *exact);
      const double ulp = std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded);
      BOOST_TEST((2 * error <= Rational(ulp)), "vertex " << i << " is not rounded to nearest");
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(reads_every_lump_of_a_synthetic_map) {
  const bsp::BspFile m = parse(make_synthetic_bsp().bytes());
  BOOST_TEST(m.entities == "{\n\"classname\" \"worldspawn\"\n}\n");
  BOOST_TEST(m.shaders.size() == 2u);
  BOOST_TEST(m.shaders[1].name == "textures/liquids/water");
  BOOST_TEST(m.shaders[1].contents == 0x20);
  BOOST_TEST(m.planes.size() == 35u);  // 5 boxes of 6 planes, the bevel, the slope, 3 octant planes
  BOOST_TEST(m.planes[0].dist == -0.0f);
  BOOST_TEST(m.brushes.size() == 6u);
  BOOST_TEST(m.brushes[0].num_sides == 7);
  BOOST_TEST(m.brushsides.size() == 34u);  // 7 + 6 + 6 + 6 + 3 + 6
  BOOST_TEST(m.drawverts.size() == 22u);
  BOOST_TEST(m.drawverts[8].position[2] == 32.0f);
  BOOST_TEST(m.drawindexes.size() == 6u);
  BOOST_TEST(m.surfaces.size() == 5u);
  BOOST_TEST((m.surfaces[1].type == bsp::SurfaceType::patch));
  BOOST_TEST(m.surfaces[1].patch_width == 3);
  BOOST_TEST(m.models.size() == 2u);
  BOOST_TEST(m.models[1].first_brush == 5);
  BOOST_TEST(m.nodes.size() == 1u);
  BOOST_TEST(m.nodes[0].children[1] == -2);
  BOOST_TEST(m.leafs.size() == 2u);
  BOOST_TEST(m.leafs[1].cluster == -1);
  BOOST_TEST(m.fogs.size() == 1u);
  BOOST_TEST(m.fogs[0].brush == 2);
  BOOST_TEST(m.lightgrid.size() == 8u);
  BOOST_TEST(m.visdata.num_clusters == 1);
  BOOST_TEST(m.visdata.bits.size() == 1u);
  BOOST_TEST(m.warnings.empty());
}

BOOST_AUTO_TEST_CASE(draw_soup_of_a_synthetic_map) {
  const bsp::BspFile m = parse(make_synthetic_bsp().bytes());
  const DrawSoup soup = extract_draw_soup(m);
  const int L = kPatchSubdivisions;
  BOOST_TEST(soup.planar_triangles == 2u);
  BOOST_TEST(soup.soup_triangles == 2u);  // surface 4 reuses surface 0's index run
  BOOST_TEST(soup.patch_triangles == std::size_t(2 * L * L));
  BOOST_TEST(soup.mesh.triangle_count() == std::size_t(4 + 2 * L * L));
  BOOST_TEST(soup.flares_skipped == 1u);
  BOOST_TEST(soup.nonsolid_skipped == 1u);  // the water quad
  BOOST_TEST(soup.degenerate_dropped == 0u);
  BOOST_TEST(soup.surfaces_used == 3u);
  // Vertices are shared by value: the soup quad's corners at z = 0 are the patch's corners.
  std::set<std::tuple<double, double, double>> distinct;
  for (const auto& v : soup.mesh.vertices) distinct.insert({v.x, v.y, v.z});
  BOOST_TEST(distinct.size() == soup.mesh.vertices.size());
  BOOST_TEST(soup.mesh.vertices.size() == std::size_t(4 + (L + 1) * (L + 1)));  // soup corners are patch corners

  // Every triangle is counter-clockwise seen from +z (the side the stored normals point to).
  for (std::size_t t = 0; t < soup.mesh.triangle_count(); ++t)
    BOOST_TEST(soup.mesh.triangle(t).normal_unnormalized().z > 0.0, "triangle " << t);

  // Patch vertices: x = 64u, y = 64v exactly (linear controls), z = 32 b1(u) b1(v), b1 = 2u(1-u).
  std::size_t patch_vertices = 0;
  for (int i = 0; i <= L; ++i)
    for (int j = 0; j <= L; ++j) {
      const double u = double(i) / L, v = double(j) / L;
      const double z = 32.0 * (2 * u * (1 - u)) * (2 * v * (1 - v));  // exact: all dyadic, few bits
      for (const auto& p : soup.mesh.vertices) patch_vertices += p.x == 64 * u && p.y == 64 * v && p.z == z;
    }
  BOOST_TEST(patch_vertices == std::size_t((L + 1) * (L + 1)));

  DrawSoupOptions all;
  all.filter = SurfaceFilter::all;
  all.patch_subdivisions = 2;
  const DrawSoup everything = extract_draw_soup(m, all);
  BOOST_TEST(everything.nonsolid_skipped == 0u);
  BOOST_TEST(everything.planar_triangles == 4u);
  BOOST_TEST(everything.patch_triangles == 8u);
  BOOST_TEST(everything.patch_subdivisions == 2);
}

BOOST_AUTO_TEST_CASE(brush_soup_of_a_synthetic_map) {
  const bsp::BspFile m = parse(make_synthetic_bsp().bytes());
  const BrushSoup soup = extract_brush_soup(m);
  BOOST_TEST(soup.brushes_used == 2u);        // the cube and the ramp; the door is model 1
  BOOST_TEST(soup.nonsolid_skipped == 1u);    // water
  BOOST_TEST(soup.degenerate_skipped == 1u);  // the flat brush
  BOOST_TEST(soup.unbounded_skipped == 1u);   // three planes
  BOOST_TEST(soup.sides_without_face == 2u);  // the cube's bevel, the ramp's y = 0 side (an edge)
  // Cube: 6 squares; ramp (a triangular prism): 2 triangles and 3 rectangles.
  BOOST_TEST(soup.mesh.triangle_count() == 12u + 8u);
  BOOST_TEST(soup.mesh.vertices.size() == 8u + 6u);
  check_closed(soup);
  check_vertices(soup);

  // The cube's corners are exactly {0, 64}^3.
  std::size_t corners = 0;
  for (const auto& v : soup.exact_vertices)
    corners += (v.x == 0 || v.x == 64) && (v.y == 0 || v.y == 64) && (v.z == 0 || v.z == 64);
  BOOST_TEST(corners == 8u);

  // Every vertex of a brush is inside all of its brush's half-spaces and on at least three planes;
  // the ramp's top corners are exact rationals (0.6f and 0.8f are not decimal 0.6 and 0.8).
  std::map<std::uint32_t, std::set<std::uint32_t>> vertices_of;
  for (std::size_t t = 0; t < soup.mesh.triangle_count(); ++t)
    for (std::uint32_t v : soup.mesh.triangles[t]) vertices_of[soup.brush_of_triangle[t]].insert(v);
  BOOST_TEST(vertices_of.size() == 2u);
  for (const auto& [b, vs] : vertices_of)
    for (std::uint32_t v : vs) {
      int on = 0;
      for (std::int32_t s = 0; s < m.brushes[b].num_sides; ++s) {
        const bsp::Plane& p = m.planes[std::size_t(m.brushsides[std::size_t(m.brushes[b].first_side + s)].plane)];
        const Vec3<Rational>& x = soup.exact_vertices[v];
        const Rational value = Rational(double(p.normal[0])) * x.x + Rational(double(p.normal[1])) * x.y +
                               Rational(double(p.normal[2])) * x.z - Rational(double(p.dist));
        BOOST_TEST(value <= 0, "brush " << b << " vertex " << v << " outside side " << s);
        on += value == 0;
      }
      BOOST_TEST(on >= 3, "brush " << b << " vertex " << v);
    }
  const Rational top = Rational(double(-kSlopeY)) * 64 / Rational(double(kSlopeZ));  // z at y = 64 on the slope
  std::size_t top_corners = 0;
  for (const auto& v : soup.exact_vertices) top_corners += v.y == 64 && v.z == top;
  BOOST_TEST(top_corners == 2u);
  BOOST_TEST(top != Rational(48));  // the float plane is not the decimal one
}

BOOST_AUTO_TEST_CASE(no_world_model_is_an_error) {
  test::SyntheticBsp s = make_synthetic_bsp();
  s[Lump::models].bytes.clear();
  s[Lump::leafs].bytes.clear();  // (nothing else refers to models)
  s[Lump::nodes].bytes.clear();
  const bsp::BspFile m = parse(s.bytes());
  BOOST_CHECK_THROW(extract_draw_soup(m), FormatError);
  BOOST_CHECK_THROW(extract_brush_soup(m), FormatError);
}

BOOST_AUTO_TEST_CASE(header_errors) {
  const std::vector<std::uint8_t> good = make_synthetic_bsp().bytes();
  auto bytes = good;
  bytes[0] = 'X';
  expect_error(bytes, {"header", "bad magic 'XBSP'", "expected 'IBSP'"});
  bytes = good;
  test::put_i32(bytes, 4, 47);
  expect_error(bytes, {"header", "unsupported version 47", "expected 46"});
  bytes.assign(good.begin(), good.begin() + 100);
  expect_error(bytes, {"header", "100 bytes"});
  expect_error({}, {"header", "0 bytes"});
}

BOOST_AUTO_TEST_CASE(lump_directory_errors) {
  const std::vector<std::uint8_t> good = make_synthetic_bsp().bytes();
  auto length_at = [](Lump l) { return std::size_t(12 + 8 * int(l)); };
  auto bytes = good;
  test::put_i32(bytes, length_at(Lump::planes), 16 * 5 + 3);
  expect_error(bytes, {"lump 'planes'", "not a multiple of its record size 16", "truncated record"});
  bytes = good;
  test::put_i32(bytes, length_at(Lump::surfaces), 104 * 1000);
  expect_error(bytes, {"lump 'surfaces'", "extends past the end of the file"});
  bytes = good;
  test::put_i32(bytes, length_at(Lump::nodes) - 4, -8);
  expect_error(bytes, {"lump 'nodes'", "negative offset -8"});
  bytes = good;
  bytes.resize(bytes.size() - 1);  // the last lump (visdata) loses a byte
  expect_error(bytes, {"lump 'visdata'", "truncated"});
}

BOOST_AUTO_TEST_CASE(record_errors_name_the_lump_and_record) {
  const test::SyntheticBsp s = make_synthetic_bsp();
  const std::vector<std::uint8_t> good = s.bytes();
  struct Case {
    Lump lump;
    std::size_t record, field;
    std::int32_t value;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases = {
      {Lump::brushsides, 3, 0, 999, {"lump 'brushsides' record 3", "plane 999 is out of range [0, 35) of lump 'planes'"}},
      {Lump::brushsides, 0, 4, 2, {"lump 'brushsides' record 0", "shader 2 is out of range"}},
      {Lump::brushes, 1, 4, 100, {"lump 'brushes' record 1", "brushside range first 7 count 100", "(34 records)"}},
      {Lump::brushes, 2, 8, -1, {"lump 'brushes' record 2", "shader -1"}},
      {Lump::nodes, 0, 4, 1, {"lump 'nodes' record 0", "child node 1 is out of range [0, 1)"}},
      {Lump::nodes, 0, 8, -3, {"lump 'nodes' record 0", "child leaf 2 is out of range [0, 2)"}},
      {Lump::nodes, 0, 0, 35, {"lump 'nodes' record 0", "plane 35"}},
      {Lump::leafs, 0, 36, 3, {"lump 'leafs' record 0", "leafface range first 0 count 3"}},
      {Lump::leafs, 1, 40, -1, {"lump 'leafs' record 1", "leafbrush range first -1"}},
      {Lump::leafs, 0, 0, 1, {"lump 'leafs' record 0", "cluster 1 is out of range [-1, 1)"}},
      {Lump::leaffaces, 1, 0, 5, {"lump 'leaffaces' record 1", "surface 5 is out of range [0, 5)"}},
      {Lump::leafbrushes, 0, 0, 6, {"lump 'leafbrushes' record 0", "brush 6"}},
      {Lump::models, 0, 28, 6, {"lump 'models' record 0", "surface range first 0 count 6"}},
      {Lump::models, 1, 32, 6, {"lump 'models' record 1", "brush range first 6 count 1"}},
      {Lump::surfaces, 0, 0, 2, {"lump 'surfaces' record 0", "shader 2"}},
      {Lump::surfaces, 2, 8, 5, {"lump 'surfaces' record 2", "unknown surface type 5"}},
      {Lump::surfaces, 4, 12, 20, {"lump 'surfaces' record 4", "vertex range first 20 count 4", "(22 records)"}},
      {Lump::surfaces, 0, 20, 1, {"lump 'surfaces' record 0", "index range first 1 count 6"}},
      {Lump::surfaces, 0, 24, 4, {"lump 'surfaces' record 0", "index count 4 is not a multiple of 3"}},
      {Lump::surfaces, 0, 16, 3, {"lump 'surfaces' record 0", "drawindexes[4] = 3 is out of range [0, 3)"}},
      {Lump::surfaces, 1, 96, 2, {"lump 'surfaces' record 1", "patch size 2 x 3"}},
      {Lump::surfaces, 1, 16, 7, {"lump 'surfaces' record 1", "does not match its 7 vertices"}},
      {Lump::surfaces, 0, 28, 0, {"lump 'surfaces' record 0", "lightmap 0 is out of range [0, 0)"}},
      {Lump::fogs, 0, 64, 6, {"lump 'fogs' record 0", "brush 6"}},
      {Lump::fogs, 0, 68, 6, {"lump 'fogs' record 0", "visible side 6 is out of range [-1, 6) of brush 2's sides"}},
      {Lump::drawindexes, 2, 0, -1, {"lump 'surfaces' record 0", "drawindexes[2] = -1"}},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.parts.front() << ": " << c.parts.back()) {
      auto bytes = good;
      test::put_i32(bytes, s.offset_of(c.lump, c.record, c.field), c.value);
      try {
        parse(bytes);
        BOOST_ERROR("no error");
      } catch (const FormatError& e) {
        const std::string what = e.what();
        for (const std::string& p : c.parts) BOOST_TEST(what.find(p) != std::string::npos, "'" << p << "' in: " << what);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(nonfinite_and_zero_planes_and_vertices_are_refused) {
  const test::SyntheticBsp s = make_synthetic_bsp();
  const std::vector<std::uint8_t> good = s.bytes();
  auto bytes = good;
  test::put_f32(bytes, s.offset_of(Lump::planes, 4, 12), INFINITY);
  expect_error(bytes, {"lump 'planes' record 4", "dist is not finite"});
  bytes = good;
  test::put_f32(bytes, s.offset_of(Lump::planes, 2, 4), NAN);
  expect_error(bytes, {"lump 'planes' record 2", "normal component is not finite"});
  bytes = good;
  for (int a = 0; a < 3; ++a) test::put_f32(bytes, s.offset_of(Lump::planes, 1, std::size_t(4 * a)), 0.0f);
  expect_error(bytes, {"lump 'planes' record 1", "the normal is zero"});
  bytes = good;
  test::put_f32(bytes, s.offset_of(Lump::drawverts, 7, 8), -INFINITY);
  expect_error(bytes, {"lump 'drawverts' record 7", "position component is not finite"});
}

BOOST_AUTO_TEST_CASE(visdata_errors) {
  const test::SyntheticBsp s = make_synthetic_bsp();
  const std::vector<std::uint8_t> good = s.bytes();
  auto bytes = good;
  test::put_i32(bytes, s.offset_of(Lump::visdata, 0), 9);  // 9 clusters do not fit rows of 1 byte
  expect_error(bytes, {"lump 'visdata'", "cannot hold 9 clusters"});
  bytes = good;
  test::put_i32(bytes, s.offset_of(Lump::visdata, 4), 2);  // 1 row of 2 bytes, 1 present
  expect_error(bytes, {"lump 'visdata'", "exceed its 1 data bytes"});
}

BOOST_AUTO_TEST_CASE(an_out_of_range_fog_is_tolerated_with_a_warning) {
  const test::SyntheticBsp s = make_synthetic_bsp();
  auto bytes = s.bytes();
  test::put_i32(bytes, s.offset_of(Lump::surfaces, 3, 4), 1);  // only fog 0 exists
  const bsp::BspFile m = parse(bytes);
  BOOST_TEST(m.surfaces[3].fog == -1);
  BOOST_TEST_REQUIRE(m.warnings.size() == 1u);
  BOOST_TEST(m.warnings[0].find("lump 'surfaces' record 3: fog 1 is out of range") != std::string::npos, m.warnings[0]);
}

BOOST_AUTO_TEST_CASE(every_truncation_is_an_error) {
  const std::vector<std::uint8_t> good = make_synthetic_bsp().bytes();
  std::size_t errors = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::vector<std::uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(n));
    try {
      parse(cut);
    } catch (const FormatError&) {
      ++errors;
    }
  }
  BOOST_TEST(errors == good.size());
}

// Random corruption: the reader either accepts the file or throws FormatError, and the soups
// of an accepted file are built without any other exception (never a crash or a stray read).
RC_BOOST_PROP(corrupted_bytes_give_format_errors_or_valid_maps, ()) {
  std::vector<std::uint8_t> bytes = make_synthetic_bsp().bytes();
  const auto edits = *rc::gen::container<std::vector<std::pair<std::size_t, std::uint8_t>>>(
      rc::gen::pair(rc::gen::inRange<std::size_t>(0, bytes.size()), rc::gen::arbitrary<std::uint8_t>()));
  for (const auto& [at, value] : edits) bytes[at] = value;
  try {
    const bsp::BspFile m = parse(bytes);
    const DrawSoup draw = extract_draw_soup(m, {SurfaceFilter::all, 2});
    const BrushSoup brush = extract_brush_soup(m);
    RC_ASSERT(draw.mesh.triangles.size() == draw.surface_of_triangle.size());
    for (const auto& t : brush.mesh.triangles)
      for (std::uint32_t v : t) RC_ASSERT(v < brush.mesh.vertices.size());
  } catch (const FormatError&) {
    RC_SUCCEED("refused");
  }
}
