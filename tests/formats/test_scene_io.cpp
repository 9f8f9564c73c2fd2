// Scene files: strict reading (every malformed case names its line), exact degeneracy,
// statistics, and a bit-exact write/read round trip.
#include "support/ieee_generators.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/scene_io.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <filesystem>
#include <limits>
#include <sstream>

using namespace slidecheck;
using formats::InputError;
using formats::Precision;
using formats::Scene;
using test::same_bits;

namespace {

const std::string data_dir = SLIDECHECK_TEST_DATA;
std::string bad(const std::string& name) { return data_dir + "/scenes/bad/" + name + ".scene"; }
std::string good(const std::string& name) { return data_dir + "/scenes/good/" + name + ".scene"; }

/// Reading `path` must throw an InputError naming the file, `line` and a problem containing `part`.
void expect_error(const std::string& path, std::size_t line, const std::string& part,
                  const formats::ReadOptions& options = {}) {
  try {
    formats::read_scene(path, options);
    BOOST_ERROR(path << " was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == path);
    BOOST_TEST(e.line() == line, e.what());
    BOOST_TEST(e.problem().find(part) != std::string::npos, "'" << e.problem() << "' lacks '" << part << "'");
    BOOST_TEST(std::string(e.what()).starts_with(line ? path + ":" + std::to_string(line) + ": " : path + ": "));
  }
}

Scene small_scene() {
  Scene s;
  s.name = "tri";
  s.units = "meter";
  s.source = "unit test";
  s.licence = "CC0-1.0";
  s.mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  s.mesh.triangles = {{0, 1, 2}};
  return s;
}

bool same_mesh_bits(const IndexedMesh<double>& a, const IndexedMesh<double>& b) {
  if (a.triangles != b.triangles || a.vertices.size() != b.vertices.size()) return false;
  for (std::size_t i = 0; i < a.vertices.size(); ++i)
    if (!same_bits(a.vertices[i].x, b.vertices[i].x) || !same_bits(a.vertices[i].y, b.vertices[i].y) ||
        !same_bits(a.vertices[i].z, b.vertices[i].z))
      return false;
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_io)

// One test per malformed file in tests/data/scenes/bad (the CLI tests run the same files).
#define SLIDECHECK_BAD_SCENE(name, line, part) \
  BOOST_AUTO_TEST_CASE(rejects_##name) { expect_error(bad(#name), line, part); }

SLIDECHECK_BAD_SCENE(empty, 0, "empty file")
SLIDECHECK_BAD_SCENE(only_comments, 0, "no content")
SLIDECHECK_BAD_SCENE(bad_magic, 1, "not a slidecheck scene")
SLIDECHECK_BAD_SCENE(bad_version, 1, "unsupported scene format 'slidecheck-scene 2'")
SLIDECHECK_BAD_SCENE(nan_coordinate, 8, "vertex 1 x: 'nan' is not finite")
SLIDECHECK_BAD_SCENE(inf_coordinate, 9, "vertex 2 y: '-inf' is not finite")
SLIDECHECK_BAD_SCENE(overflow_coordinate, 9, "'1e400' is too large for double")
SLIDECHECK_BAD_SCENE(empty_number, 8, "vertex 1 z: '0x' is not a number")
SLIDECHECK_BAD_SCENE(trailing_garbage, 8, "unexpected 'x' after it")
SLIDECHECK_BAD_SCENE(wrong_arity_vertex, 8, "needs 3 coordinates ('v x y z'), got 2")
SLIDECHECK_BAD_SCENE(wrong_arity_triangle, 11, "needs 3 vertex indices ('t i j k'), got 2")
SLIDECHECK_BAD_SCENE(index_out_of_range, 11, "vertex index 3 out of range (the scene has 3 vertices")
SLIDECHECK_BAD_SCENE(negative_index, 11, "expected a non-negative integer, got '-1'")
SLIDECHECK_BAD_SCENE(degenerate, 13, "triangle 1 (vertices 0 1 3, counted from 0) has zero area")
SLIDECHECK_BAD_SCENE(not_representable_float, 9, "'0x1.0000001p+0' is not exactly representable in float")
SLIDECHECK_BAD_SCENE(inexact_hexfloat, 8, "not exactly representable in double")
SLIDECHECK_BAD_SCENE(truncated_vertices, 10, "expected vertex line 4 of 4")
SLIDECHECK_BAD_SCENE(truncated_eof, 8, "file ends after 2 of 3 declared vertex lines")
SLIDECHECK_BAD_SCENE(missing_end, 11, "file ends without 'end'")
SLIDECHECK_BAD_SCENE(missing_units, 4, "missing 'units' line")
SLIDECHECK_BAD_SCENE(extra_vertex, 10, "more vertex lines than the 3 declared")
SLIDECHECK_BAD_SCENE(extra_triangle, 12, "more triangle lines than the 1 declared")
SLIDECHECK_BAD_SCENE(content_after_end, 13, "unexpected content after 'end'")
SLIDECHECK_BAD_SCENE(unknown_statement, 6, "unknown statement 'colour'")
SLIDECHECK_BAD_SCENE(no_triangles, 8, "at least one triangle")
SLIDECHECK_BAD_SCENE(duplicate_field, 6, "'units' given twice")
SLIDECHECK_BAD_SCENE(bad_precision, 6, "precision must be 'float' or 'double', not 'half'")

BOOST_AUTO_TEST_CASE(every_bad_file_has_a_test) {
  // Keeps the list above (and the CLI tests) in step with tests/data/scenes/bad.
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(data_dir + "/scenes/bad")) ++n;
  BOOST_TEST(n == 27u);
}

BOOST_AUTO_TEST_CASE(unreadable_files_are_input_errors) {
  expect_error(data_dir + "/scenes/no_such_file.scene", 0, "cannot open");
  expect_error(data_dir + "/scenes/bad", 0, "is a directory");
}

BOOST_AUTO_TEST_CASE(degenerate_triangles_counted_when_allowed) {
  const Scene by_option = formats::read_scene(bad("degenerate"), {.allow_degenerate = true});
  BOOST_TEST(by_option.degenerate_triangles == std::vector<std::size_t>{1});
  const Scene by_file = formats::read_scene(good("degenerate_allowed"));
  BOOST_TEST(by_file.degenerate_allowed);
  BOOST_TEST(by_file.degenerate_triangles == std::vector<std::size_t>{1});
  BOOST_TEST(formats::compute_stats(by_file).degenerate == 1u);
}

BOOST_AUTO_TEST_CASE(degeneracy_is_decided_exactly) {
  // (1+2^-52)^2 - (1+2^-51) = 2^-104: the double cross product rounds it to 0, exactly it is not.
  const double e = std::ldexp(1.0, -52);
  const Triangle<double> almost{{0, 0, 0}, {1 + e, 1 + 2 * e, 0}, {1, 1 + e, 0}};
  BOOST_TEST(almost.is_degenerate());  // the double evaluation is fooled
  BOOST_TEST(!formats::is_degenerate_exact(almost));
  const Triangle<double> collinear{{0, 0, 0}, {1 + e, 1 + e, 1 + e}, {3, 3, 3}};
  BOOST_TEST(formats::is_degenerate_exact(collinear));
  const Triangle<double> repeated{{1, 2, 3}, {1, 2, 3}, {4, 5, 6}};
  BOOST_TEST(formats::is_degenerate_exact(repeated));
}

BOOST_AUTO_TEST_CASE(reads_extreme_values_exactly) {
  const Scene f = formats::read_scene(good("float_extremes"));
  BOOST_TEST((f.precision == Precision::single_float));
  const auto& v = f.mesh.vertices;
  BOOST_TEST(v[0].x == static_cast<double>(std::numeric_limits<float>::denorm_min()));
  BOOST_TEST(std::signbit(v[0].y));
  BOOST_TEST(v[0].z == static_cast<double>(std::numeric_limits<float>::max()));
  // Decimals in a float scene are rounded once, to float.
  BOOST_TEST(v[3].x == static_cast<double>(0.1f));
  BOOST_TEST(v[3].z == static_cast<double>(1e-3f));
  BOOST_TEST(v[3].x != 0.1);
  const Scene d = formats::read_scene(good("double_extremes"));
  BOOST_TEST(d.mesh.vertices[0].x == std::numeric_limits<double>::denorm_min());
  BOOST_TEST(d.mesh.vertices[0].z == std::numeric_limits<double>::max());
  BOOST_TEST(d.name == "double extremes");
  BOOST_TEST(d.units == "meter");
  BOOST_TEST(d.licence == "CC0-1.0");
  BOOST_TEST(d.triangle_lines == std::vector<std::size_t>{11});
}

BOOST_AUTO_TEST_CASE(statistics) {
  Scene s = small_scene();
  s.mesh.vertices.push_back({-5, 7, 9});  // unused: not in the bounding box
  const formats::SceneStats st = formats::compute_stats(s);
  BOOST_TEST(st.vertices == 4u);
  BOOST_TEST(st.triangles == 1u);
  BOOST_TEST(st.degenerate == 0u);
  BOOST_TEST((st.bbox_min == Vec3<double>{0, 0, 0}));
  BOOST_TEST((st.bbox_max == Vec3<double>{1, 1, 0}));
  BOOST_TEST(st.min_edge == 1.0);
  BOOST_TEST(st.max_edge == num::sqrt(2.0));
  // Squares of huge edges would overflow: the length is scaled first.
  s.mesh.vertices = {{0, 0, 0}, {1e300, 0, 0}, {0, 1e300, 0}};
  BOOST_TEST(formats::compute_stats(s).max_edge == 1e300 * num::sqrt(2.0), boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(writes_hexfloats_with_decimal_comments) {
  Scene s = small_scene();
  s.mesh.vertices[1].x = 0.1;
  const std::string text = formats::scene_to_string(s);
  BOOST_TEST(text.starts_with("slidecheck-scene 1\nname tri\nunits meter\n"));
  BOOST_TEST(text.find("v 0x1.999999999999ap-4 0x0p+0 0x0p+0  # 0.1 0 0\n") != std::string::npos, text);
  BOOST_TEST(text.ends_with("triangles 1\nt 0 1 2\nend\n"));
  s.precision = Precision::single_float;
  s.mesh.vertices[1].x = static_cast<double>(0.1f);
  BOOST_TEST(formats::scene_to_string(s).find("# 0.1 0 0") != std::string::npos);  // float's shortest decimal
}

BOOST_AUTO_TEST_CASE(writer_refuses_what_would_not_read_back) {
  Scene s = small_scene();
  s.source = "a # b";
  BOOST_CHECK_THROW(formats::scene_to_string(s), std::invalid_argument);
  s = small_scene();
  s.name = "two\nlines";
  BOOST_CHECK_THROW(formats::scene_to_string(s), std::invalid_argument);
  s = small_scene();
  s.units = "";
  BOOST_CHECK_THROW(formats::scene_to_string(s), std::invalid_argument);
  s = small_scene();
  s.licence = " CC0-1.0";
  BOOST_CHECK_THROW(formats::scene_to_string(s), std::invalid_argument);
  s = small_scene();
  s.precision = Precision::single_float;
  s.mesh.vertices[1].x = 0.1;
  BOOST_CHECK_THROW(formats::scene_to_string(s), std::invalid_argument);
  s = small_scene();
  s.mesh.vertices[1].x = std::numeric_limits<double>::infinity();
  BOOST_CHECK_THROW(formats::scene_to_string(s), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(validation_of_scenes_built_in_memory) {
  Scene s = small_scene();
  s.mesh.triangles.push_back({0, 1, 3});
  BOOST_CHECK_THROW(formats::validate_scene(s, "mem"), InputError);
  s = small_scene();
  s.mesh.vertices[0].y = std::numeric_limits<double>::quiet_NaN();
  BOOST_CHECK_THROW(formats::validate_scene(s, "mem"), InputError);
  s = small_scene();
  s.mesh.triangles.clear();
  BOOST_CHECK_THROW(formats::validate_scene(s, "mem"), InputError);
  s = small_scene();
  s.mesh.vertices[2] = {2, 0, 0};
  BOOST_CHECK_THROW(formats::validate_scene(s, "mem"), InputError);
  formats::validate_scene(s, "mem", {.allow_degenerate = true});
  BOOST_TEST(s.degenerate_triangles.size() == 1u);
}

BOOST_AUTO_TEST_CASE(comments_blank_lines_and_crlf_are_accepted) {
  const std::string text =
      "# leading comment\r\n\r\nslidecheck-scene 1  # magic\r\nunits meter\r\nsource s\r\nlicence CC0-1.0\r\n"
      "vertices 3\r\n\r\nv 0 0 0\r\n# between\r\nv 1 0 0 # trailing\r\nv 0x0p+0 0x1p+0 -0x0p+0\r\n"
      "triangles 1\r\nt 0 1 2\r\nend\r\n# trailing comment\r\n";
  const Scene s = formats::parse_scene(text, "crlf.scene");
  BOOST_TEST(s.mesh.vertices.size() == 3u);
  BOOST_TEST(s.source == "s");
  BOOST_TEST(std::signbit(s.mesh.vertices[2].z));
  BOOST_TEST(s.triangle_lines == std::vector<std::size_t>{14});
}

BOOST_AUTO_TEST_CASE(byte_order_marks) {
  const std::string text = "slidecheck-scene 1\nunits meter\nsource s\nlicence CC0-1.0\nvertices 3\n"
                           "v 0 0 0\nv 1 0 0\nv 0 1 0\ntriangles 1\nt 0 1 2\nend\n";
  BOOST_TEST(formats::parse_scene("\xEF\xBB\xBF" + text, "bom.scene").mesh.triangles.size() == 1u);
  BOOST_CHECK_EXCEPTION(formats::parse_scene(std::string("\0\0\xFE\xFF", 4) + "x", "u32.scene"), InputError,
                        [](const InputError& e) { return e.problem().find("encoded as UTF-32 BE") != std::string::npos; });
}

// ---- round trip -------------------------------------------------------------------------

namespace {
template <class F>
void prop_round_trip(Precision precision) {
  Scene s;
  s.name = *rc::gen::element<std::string>("", "a name", "x");
  s.units = "meter";
  s.source = *rc::gen::element<std::string>("generated", "rapidcheck property");
  s.licence = "CC0-1.0";
  s.precision = precision;
  s.degenerate_allowed = true;  // random triangles may repeat a vertex
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 20);
  for (std::size_t i = 0; i < n; ++i)
    s.mesh.vertices.push_back({static_cast<double>(*test::gen_finite<F>()), static_cast<double>(*test::gen_finite<F>()),
                               static_cast<double>(*test::gen_finite<F>())});
  const std::size_t m = *rc::gen::inRange<std::size_t>(1, 20);
  const auto index = rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(n));
  for (std::size_t i = 0; i < m; ++i) s.mesh.triangles.push_back({*index, *index, *index});
  const Scene back = formats::parse_scene(formats::scene_to_string(s), "roundtrip.scene");
  RC_ASSERT(same_mesh_bits(back.mesh, s.mesh));
  RC_ASSERT(back.name == s.name);
  RC_ASSERT(back.source == s.source);
  RC_ASSERT(back.precision == s.precision);
  RC_ASSERT(back.degenerate_allowed);
  // Writing what was read gives the same text.
  RC_ASSERT(formats::scene_to_string(back) == formats::scene_to_string(s));
}
}  // namespace

RC_BOOST_PROP(double_scene_round_trip_is_bit_exact, ()) { prop_round_trip<double>(Precision::double_float); }
RC_BOOST_PROP(float_scene_round_trip_is_bit_exact, ()) { prop_round_trip<float>(Precision::single_float); }

BOOST_AUTO_TEST_SUITE_END()
