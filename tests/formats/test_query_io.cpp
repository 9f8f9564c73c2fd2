// Query files (JSON lines): strict reading with file:line: field errors, bit-exact round trip,
// and the built-in corpus's queries against its scenes.
#include "support/ieee_generators.hpp"

#include <slidecheck/reference/geometry/closest_point.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/mesh_import.hpp>
#include <slidecheck/formats/paths_io.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/formats/text_lines.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace slidecheck;
using formats::Algorithm;
using formats::InputError;
using formats::Query;
using test::same_bits;

namespace {

const std::string valid =
    R"({"id":"q1","scene":"floor.scene","algorithm":"fauerby","start":["0x0p+0","0x1p+0","-0x0p+0"],)"
    R"("displacement":["0x1p-1","0.1",2],"radius":"0x1p-1","tolerances":{"very_close_distance":0.005}})";

/// `valid` with `from` replaced by `to`.
std::string edit(const std::string& from, const std::string& to) {
  std::string s = valid;
  const std::size_t at = s.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

/// Parsing `text` as line 7 of "q.jsonl" must fail naming that line and a problem containing `part`.
void expect_error(const std::string& text, const std::string& part) {
  try {
    formats::parse_query_line(text, "q.jsonl", 7);
    BOOST_ERROR("accepted: " << text);
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == "q.jsonl");
    BOOST_TEST(e.line() == 7u);
    BOOST_TEST(e.problem().find(part) != std::string::npos, "'" << e.problem() << "' lacks '" << part << "'");
    BOOST_TEST(std::string(e.what()).starts_with("q.jsonl:7: "));
  }
}

bool same_vec_bits(const Vec3<double>& a, const Vec3<double>& b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(query_io)

BOOST_AUTO_TEST_CASE(reads_every_number_form) {
  const Query q = formats::parse_query_line(valid, "q.jsonl", 1);
  BOOST_TEST(q.id == "q1");
  BOOST_TEST(q.scene == "floor.scene");
  BOOST_TEST((q.algorithm == Algorithm::fauerby));
  BOOST_TEST((q.start == Vec3<double>{0, 1, 0}));
  BOOST_TEST(std::signbit(q.start.z));
  BOOST_TEST(q.displacement.x == 0.5);  // hexfloat string
  BOOST_TEST(q.displacement.y == 0.1);  // decimal string, rounded once
  BOOST_TEST(q.displacement.z == 2.0);  // JSON number
  BOOST_TEST((q.shape == Shape<double>{Sphere<double>{0.5}}));
  BOOST_TEST((q.gravity == Vec3<double>{0, 0, 0}));  // default
  BOOST_TEST(q.tolerances.at("very_close_distance") == 0.005);
  const Query e = formats::parse_query_line(edit(R"("radius":"0x1p-1")", R"("radii":[1,"2","0x1.8p+1"])"), "q.jsonl", 1);
  BOOST_TEST((e.shape == Shape<double>{Ellipsoid<double>{{1, 2, 3}}}));
  // A capsule's radius and half axis in every number form: hexfloat, decimal string, JSON number.
  const Query c = formats::parse_query_line(
      edit(R"("radius":"0x1p-1")", R"("capsule":{"radius":"0x1p-2","half_axis":[0,"0.1",-0.75]})"), "q.jsonl", 1);
  BOOST_TEST((c.shape == Shape<double>{Capsule<double>{0.25, {0, 0.1, -0.75}}}));
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance, Algorithm::robust}) {
    const std::string name(formats::algorithm_name(a));
    BOOST_TEST((formats::parse_query_line(edit("fauerby", name), "q.jsonl", 1).algorithm == a));
  }
}

// One test per malformed case; each names the field.
#define SLIDECHECK_BAD_QUERY(name, text, part) \
  BOOST_AUTO_TEST_CASE(rejects_##name) { expect_error(text, part); }

SLIDECHECK_BAD_QUERY(invalid_json, edit("}}", "}"), "invalid JSON")
SLIDECHECK_BAD_QUERY(not_an_object, "[1,2,3]", "expected a JSON object, got array")
SLIDECHECK_BAD_QUERY(missing_id, edit(R"("id":"q1",)", ""), "missing field 'id'")
SLIDECHECK_BAD_QUERY(empty_id, edit(R"("id":"q1")", R"("id":"")"), "field 'id': must not be empty")
SLIDECHECK_BAD_QUERY(missing_scene, edit(R"("scene":"floor.scene",)", ""), "missing field 'scene'")
SLIDECHECK_BAD_QUERY(scene_not_string, edit(R"("scene":"floor.scene")", R"("scene":3)"), "field 'scene': expected a string")
SLIDECHECK_BAD_QUERY(tolerances_without_algorithm, edit(R"("algorithm":"fauerby",)", ""),
                     "field 'tolerances': needs 'algorithm'")
SLIDECHECK_BAD_QUERY(algorithm_not_string, edit(R"("algorithm":"fauerby")", R"("algorithm":1)"),
                     "field 'algorithm': expected a string")
SLIDECHECK_BAD_QUERY(malformed_algorithm_name, edit("fauerby", "9 lives"), "field 'algorithm': '9 lives' is not an algorithm name")
SLIDECHECK_BAD_QUERY(missing_start, edit(R"("start":["0x0p+0","0x1p+0","-0x0p+0"],)", ""), "missing field 'start'")
SLIDECHECK_BAD_QUERY(missing_radius, edit(R"(,"radius":"0x1p-1")", ""), "missing field 'radius' (sphere) or 'radii'")
SLIDECHECK_BAD_QUERY(radius_and_radii, edit(R"("radius":"0x1p-1")", R"("radius":1,"radii":[1,1,1])"), "give only one of 'radius' (sphere) or 'radii' (ellipsoid)")
SLIDECHECK_BAD_QUERY(zero_radius, edit(R"("radius":"0x1p-1")", R"("radius":0)"), "field 'radius': must be > 0")
SLIDECHECK_BAD_QUERY(negative_zero_radius, edit(R"("radius":"0x1p-1")", R"("radius":"-0x0p+0")"), "field 'radius': must be > 0, got -0x0p+0")
SLIDECHECK_BAD_QUERY(negative_radius, edit(R"("radius":"0x1p-1")", R"("radius":-1.5)"), "field 'radius': must be > 0, got -0x1.8p+0")
SLIDECHECK_BAD_QUERY(negative_radii, edit(R"("radius":"0x1p-1")", R"("radii":[1,-2,1])"), "field 'radii': must be > 0")
// Capsules: each problem names the capsule's member.
namespace {
std::string with_capsule(const std::string& value) { return edit(R"("radius":"0x1p-1")", R"("capsule":)" + value); }
}  // namespace
SLIDECHECK_BAD_QUERY(capsule_zero_radius, with_capsule(R"({"radius":0,"half_axis":[0,0,1]})"), "field 'capsule.radius': must be > 0, got 0x0p+0")
SLIDECHECK_BAD_QUERY(capsule_negative_radius, with_capsule(R"({"radius":"-0x1p-1","half_axis":[0,0,1]})"), "field 'capsule.radius': must be > 0, got -0x1p-1")
SLIDECHECK_BAD_QUERY(capsule_zero_half_axis, with_capsule(R"({"radius":1,"half_axis":[0,"-0x0p+0",0]})"), "field 'capsule.half_axis': must not be zero")
SLIDECHECK_BAD_QUERY(capsule_missing_radius, with_capsule(R"({"half_axis":[0,0,1]})"), "missing field 'capsule.radius'")
SLIDECHECK_BAD_QUERY(capsule_missing_half_axis, with_capsule(R"({"radius":1})"), "missing field 'capsule.half_axis'")
SLIDECHECK_BAD_QUERY(capsule_unknown_member, with_capsule(R"({"radius":1,"half_axis":[0,0,1],"height":2})"), "unknown field 'capsule.height'")
SLIDECHECK_BAD_QUERY(capsule_not_an_object, with_capsule("[1,0,0,1]"), "'capsule' must be an object {\"radius\": r, \"half_axis\": [x, y, z]}, got array")
SLIDECHECK_BAD_QUERY(capsule_bad_half_axis, with_capsule(R"({"radius":1,"half_axis":[0,1]})"), "field 'capsule.half_axis': expected an array of 3 numbers")
SLIDECHECK_BAD_QUERY(capsule_nan_half_axis, with_capsule(R"({"radius":1,"half_axis":[0,"nan",1]})"), "field 'capsule.half_axis[1]': 'nan' is not finite")
SLIDECHECK_BAD_QUERY(capsule_and_radius, edit(R"("radius":"0x1p-1")", R"("radius":1,"capsule":{"radius":1,"half_axis":[0,0,1]})"),
                     "give only one of 'radius' (sphere) or 'radii' (ellipsoid) or 'capsule' (capsule)")
SLIDECHECK_BAD_QUERY(capsule_and_radii, edit(R"("radius":"0x1p-1")", R"("radii":[1,1,1],"capsule":{"radius":1,"half_axis":[0,0,1]})"),
                     "give only one of")
SLIDECHECK_BAD_QUERY(capsule_given_twice, edit(R"("radius":"0x1p-1")", R"("capsule":{"radius":1,"half_axis":[0,0,1]},"capsule":{"radius":2,"half_axis":[0,0,1]})"),
                     "field 'capsule' given twice")
SLIDECHECK_BAD_QUERY(capsule_radius_twice, with_capsule(R"({"radius":1,"half_axis":[0,0,1],"radius":2})"),
                     "field 'capsule.radius' given twice")
SLIDECHECK_BAD_QUERY(tolerance_twice, edit(R"({"very_close_distance":0.005})", R"({"very_close_distance":0.005,"very_close_distance":1})"),
                     "field 'tolerances.very_close_distance' given twice")
SLIDECHECK_BAD_QUERY(nan_string, edit(R"("0.1")", R"("nan")"), "field 'displacement[1]': 'nan' is not finite")
SLIDECHECK_BAD_QUERY(inf_string, edit(R"("0.1")", R"("-inf")"), "field 'displacement[1]': '-inf' is not finite")
SLIDECHECK_BAD_QUERY(garbage_string, edit(R"("0.1")", R"("0.1m")"), "field 'displacement[1]': '0.1m' is not a number")
SLIDECHECK_BAD_QUERY(overflowing_number, edit(R"("0.1")", "1e400"), "invalid JSON")
SLIDECHECK_BAD_QUERY(wrong_arity, edit(R"(["0x1p-1","0.1",2])", R"(["0x1p-1","0.1"])"), "field 'displacement': expected an array of 3 numbers, got an array of 2")
SLIDECHECK_BAD_QUERY(not_a_vector, edit(R"(["0x1p-1","0.1",2])", "2"), "field 'displacement': expected an array of 3 numbers, got number")
SLIDECHECK_BAD_QUERY(boolean_element, edit(R"("0.1")", "true"), "field 'displacement[1]': expected a number or a numeric string, got boolean")
SLIDECHECK_BAD_QUERY(bad_gravity, edit(R"("radius")", R"("gravity":[0,0,"x"],"radius")"), "field 'gravity[2]'")
SLIDECHECK_BAD_QUERY(unknown_field, edit(R"("radius")", R"("velocity":[0,0,0],"radius")"), "unknown field 'velocity'")
SLIDECHECK_BAD_QUERY(duplicate_field, edit(R"("radius":"0x1p-1")", R"("radius":"0x1p-1","radius":2)"), "field 'radius' given twice")
SLIDECHECK_BAD_QUERY(tolerances_not_object, edit(R"({"very_close_distance":0.005})", "[0.005]"), "field 'tolerances': expected an object")
SLIDECHECK_BAD_QUERY(tolerance_not_number, edit("0.005", R"("small")"), "field 'tolerances.very_close_distance'")
SLIDECHECK_BAD_QUERY(zero_frames, edit(R"("radius")", R"("frames":0,"radius")"), "field 'frames': must be from 1 to 10000, got 0")
SLIDECHECK_BAD_QUERY(too_many_frames, edit(R"("radius")", R"("frames":10001,"radius")"), "field 'frames': must be from 1 to 10000")
SLIDECHECK_BAD_QUERY(fractional_frames, edit(R"("radius")", R"("frames":1.5,"radius")"), "field 'frames': expected an integer, got 1.5")
SLIDECHECK_BAD_QUERY(nul_in_scene, edit("floor.scene", R"(floor.scene\u0000x)"), "field 'scene': must not contain a NUL character")
SLIDECHECK_BAD_QUERY(nul_in_id, edit(R"("id":"q1")", R"("id":"q\u00001")"), "field 'id': must not contain a NUL character")
SLIDECHECK_BAD_QUERY(string_frames, edit(R"("radius")", R"("frames":"3","radius")"), "field 'frames': expected an integer, got string")

BOOST_AUTO_TEST_CASE(algorithm_is_optional_and_written_only_when_given) {
  // Without "algorithm" (and so without tolerances): read, and written back without one.
  const std::string line = R"({"id":"q","scene":"m.obj","start":[0,0,1],"displacement":[0,0,-1],"radius":0.5})";
  const Query q = formats::parse_query_line(line, "q.jsonl", 1);
  BOOST_TEST(!q.algorithm_given);
  BOOST_TEST(q.scene == "m.obj");
  const std::string written = formats::query_to_json_line(q);
  BOOST_TEST(written.find("algorithm") == std::string::npos);
  BOOST_TEST(!formats::parse_query_line(written, "q.jsonl", 1).algorithm_given);
  BOOST_TEST(formats::parse_query_line(valid, "q.jsonl", 1).algorithm_given);
  Query with_tolerances = q;
  with_tolerances.tolerances["skin"] = 1;
  BOOST_CHECK_THROW(formats::query_to_json_line(with_tolerances), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(frames_round_trip_and_default) {
  Query q;
  q.id = "push";
  q.scene = "s.scene";
  q.set_radius(0.5);
  BOOST_TEST(formats::query_to_json_line(q).find("frames") == std::string::npos);  // default 1: not written
  q.frames = 8;
  const std::string line = formats::query_to_json_line(q);
  BOOST_TEST(line.find(R"("frames":8)") != std::string::npos);
  BOOST_TEST(formats::parse_query_line(line, "q.jsonl", 1).frames == 8);
  q.frames = 0;
  BOOST_CHECK_THROW(formats::query_to_json_line(q), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(file_level_errors) {
  try {
    formats::parse_queries(valid + "\n\n" + edit("fauerby", "linahan") + "\n", "q.jsonl");
    BOOST_ERROR("a repeated id was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.line() == 3u);
    BOOST_TEST(e.problem() == "field 'id': 'q1' already used on line 1");
  }
  try {
    formats::parse_queries(valid + "\n" + edit("}}", "}") + "\n", "q.jsonl");
    BOOST_ERROR("bad second line accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.line() == 2u);
  }
  BOOST_CHECK_EXCEPTION(formats::parse_queries("", "q.jsonl"), InputError,
                        [](const InputError& e) { return e.line() == 0 && e.problem() == "empty file"; });
  BOOST_CHECK_EXCEPTION(formats::parse_queries("\n  \n", "q.jsonl"), InputError,
                        [](const InputError& e) { return e.problem().find("no queries") != std::string::npos; });
  BOOST_CHECK_EXCEPTION(formats::read_queries(std::string(SLIDECHECK_TEST_DATA) + "/no_such.jsonl"), InputError,
                        [](const InputError& e) { return e.problem().find("cannot open") != std::string::npos; });
  const auto two = formats::parse_queries(valid + "\r\n" + edit(R"("id":"q1")", R"("id":"q2")"), "q.jsonl");
  BOOST_TEST(two.size() == 2u);
  // A UTF-8 byte-order mark is skipped; UTF-16 text and NUL bytes are named for what they are.
  BOOST_TEST(formats::parse_queries("\xEF\xBB\xBF" + valid + "\n", "q.jsonl").size() == 1u);
  BOOST_CHECK_EXCEPTION(formats::parse_queries(std::string("\xFF\xFE{\0", 4), "q.jsonl"), InputError,
                        [](const InputError& e) { return e.problem().find("encoded as UTF-16 LE") != std::string::npos; });
  BOOST_CHECK_EXCEPTION(formats::parse_queries(valid + "\n" + std::string("{\0}", 3), "q.jsonl"), InputError,
                        [](const InputError& e) { return e.line() == 2 && e.problem().find("NUL byte") != std::string::npos; });
}

BOOST_AUTO_TEST_CASE(endless_and_special_files_are_refused) {
  // A symlink to /dev/zero would grow without end and a FIFO would wait for a writer: every
  // reader refuses both at once, naming the file and what it is.
  const auto dir = std::filesystem::temp_directory_path() / ("slidecheck-special-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string zero = (dir / "zero.jsonl").string(), fifo = (dir / "fifo.jsonl").string();
  std::filesystem::create_symlink("/dev/zero", zero);
  BOOST_REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& f : {zero, fifo}) {
    const std::string kind = f == zero ? "is a character device, not a regular file" : "is a FIFO (named pipe), not a regular file";
    const auto names_it = [&](const InputError& e) {
      return e.file() == f && e.line() == 0 && e.problem().find(kind) != std::string::npos;
    };
    BOOST_CHECK_EXCEPTION(formats::read_queries(f), InputError, names_it);
    BOOST_CHECK_EXCEPTION(formats::read_scene(f), InputError, names_it);
    BOOST_CHECK_EXCEPTION(formats::import_obj(f), InputError, names_it);
    BOOST_CHECK_EXCEPTION(formats::read_paths(f), InputError, names_it);
  }
  // A line past kMaxLineBytes is refused naming its line, before it is parsed.
  const std::string long_line = (dir / "long.jsonl").string();
  {
    std::ofstream out(long_line, std::ios::binary);
    out << valid << "\n" << std::string(formats::kMaxLineBytes + 1, ' ') << "\n";
  }
  BOOST_CHECK_EXCEPTION(formats::read_queries(long_line), InputError, [&](const InputError& e) {
    return e.line() == 2 && e.problem().find("longer than 64 MiB") != std::string::npos;
  });
  // The same for the line readers (scene, OBJ, OFF), even in a comment.
  {
    std::ofstream out(long_line, std::ios::binary);
    out << "# " << std::string(formats::kMaxLineBytes, 'x') << "\n";
  }
  BOOST_CHECK_EXCEPTION(formats::read_scene(long_line), InputError, [&](const InputError& e) {
    return e.line() == 1 && e.problem().find("longer than 64 MiB") != std::string::npos;
  });
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(writes_hexfloat_strings_in_a_fixed_order) {
  Query q;
  q.id = "w";
  q.scene = "s.scene";
  q.algorithm = Algorithm::pseudo_distance;
  q.start = {0.1, -0.0, 3};
  q.displacement = {1, 2, 3};
  q.set_radius(0.5);
  q.tolerances["epsilon"] = 1e-5;
  BOOST_TEST(formats::query_to_json_line(q) ==
             R"({"id":"w","scene":"s.scene","algorithm":"pseudo_distance","start":["0x1.999999999999ap-4","-0x0p+0","0x1.8p+1"],)"
             R"("displacement":["0x1p+0","0x1p+1","0x1.8p+1"],"radius":"0x1p-1","gravity":["0x0p+0","0x0p+0","0x0p+0"],)"
             R"("tolerances":{"epsilon":"0x1.4f8b588e368f1p-17"}})");
  Query bad = q;
  bad.shape = Ellipsoid<double>{{0.5, -1, 0.5}};
  BOOST_CHECK_THROW(formats::query_to_json_line(bad), std::invalid_argument);
  bad = q;
  bad.set_radius(0);
  BOOST_CHECK_THROW(formats::query_to_json_line(bad), std::invalid_argument);
  // A capsule is written as {"radius", "half_axis"}, hexfloats; one the reader refuses is not written.
  Query capsule = q;
  capsule.shape = Capsule<double>{0.5, {0, -0.0, 0x1.8p+1}};
  BOOST_TEST(formats::query_to_json_line(capsule).find(
                 R"("capsule":{"radius":"0x1p-1","half_axis":["0x0p+0","-0x0p+0","0x1.8p+1"]},"gravity")") != std::string::npos);
  bad = capsule;
  bad.shape = Capsule<double>{0.5, {0, -0.0, 0}};
  BOOST_CHECK_THROW(formats::query_to_json_line(bad), std::invalid_argument);
  bad.shape = Capsule<double>{-0.5, {0, 0, 1}};
  BOOST_CHECK_THROW(formats::query_to_json_line(bad), std::invalid_argument);
  bad = q;
  bad.start.x = std::numeric_limits<double>::quiet_NaN();
  BOOST_CHECK_THROW(formats::query_to_json_line(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(scene_paths_are_relative_to_the_query_file) {
  Query q;
  q.scene = "floor.scene";
  BOOST_TEST(formats::resolve_scene_path("corpora/builtin/queries.jsonl", q) == "corpora/builtin/floor.scene");
  q.scene = "/abs/x.scene";
  BOOST_TEST(formats::resolve_scene_path("corpora/builtin/queries.jsonl", q) == "/abs/x.scene");
}

RC_BOOST_PROP(query_round_trip_is_bit_exact, ()) {
  const auto finite = test::gen_finite<double>();
  const auto positive = rc::gen::map(finite, [](double x) { return x == 0 ? 1.0 : std::fabs(x); });
  std::vector<Query> qs;
  const int n = *rc::gen::inRange(1, 5);
  for (int i = 0; i < n; ++i) {
    Query q;
    q.id = std::to_string(i);  // unique; then a suffix that JSON must escape or carry as UTF-8
    q.id.append(*rc::gen::element<std::string>("", " with \"quotes\"", "\xc3\xa9"));
    q.scene = *rc::gen::element<std::string>("a.scene", "sub dir/b.scene");
    q.algorithm = *rc::gen::element(Algorithm::fauerby, Algorithm::linahan, Algorithm::monter,
                                    Algorithm::pseudo_distance, Algorithm::robust);
    q.algorithm_given = *rc::gen::arbitrary<bool>();
    q.start = {*finite, *finite, *finite};
    q.displacement = {*finite, *finite, *finite};
    q.gravity = {*finite, *finite, *finite};
    switch (*rc::gen::inRange(0, 3)) {
      case 0: q.set_radius(*positive); break;
      case 1: q.shape = Ellipsoid<double>{{*positive, *positive, *positive}}; break;
      default: {
        // Any finite half axis but zero (signed zeros and subnormals included).
        const Vec3<double> axis{*finite, *finite, *finite};
        RC_PRE(!(axis == Vec3<double>{}));
        q.shape = Capsule<double>{*positive, axis};
      }
    }
    if (q.algorithm_given && *rc::gen::arbitrary<bool>()) q.tolerances["very_close_distance"] = *finite;
    if (q.algorithm_given && *rc::gen::arbitrary<bool>()) q.tolerances["skin"] = *finite;
    qs.push_back(q);
  }
  std::ostringstream out;
  formats::write_queries(out, qs);
  const std::vector<Query> back = formats::parse_queries(out.str(), "roundtrip.jsonl");
  RC_ASSERT(back.size() == qs.size());
  for (std::size_t i = 0; i < qs.size(); ++i) {
    RC_ASSERT(back[i].id == qs[i].id);
    RC_ASSERT(back[i].scene == qs[i].scene);
    RC_ASSERT(back[i].algorithm_given == qs[i].algorithm_given);
    if (qs[i].algorithm_given) RC_ASSERT(back[i].algorithm == qs[i].algorithm);
    RC_ASSERT(same_vec_bits(back[i].start, qs[i].start));
    RC_ASSERT(same_vec_bits(back[i].displacement, qs[i].displacement));
    RC_ASSERT(same_vec_bits(back[i].gravity, qs[i].gravity));
    RC_ASSERT(back[i].shape.index() == qs[i].shape.index());
    for (std::size_t k = 0; k < length_count(qs[i].shape); ++k)
      RC_ASSERT(same_bits(length(back[i].shape, k), length(qs[i].shape, k)));
    RC_ASSERT(back[i].tolerances.size() == qs[i].tolerances.size());
    for (const auto& [name, value] : qs[i].tolerances) RC_ASSERT(same_bits(back[i].tolerances.at(name), value));
  }
}

// ---- the built-in corpus ------------------------------------------------------------------

namespace {
const std::string builtin = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";
}

BOOST_AUTO_TEST_CASE(builtin_queries_refer_to_valid_builtin_scenes) {
  const std::string file = builtin + "/queries.jsonl";
  const std::vector<Query> qs = formats::read_queries(file);
  BOOST_TEST(qs.size() >= 4u);
  bool has_ellipsoid = false, has_tolerances = false;
  for (const Query& q : qs) {
    BOOST_TEST_CONTEXT("query " << q.id) {
      const formats::Scene s = formats::read_scene(formats::resolve_scene_path(file, q));
      BOOST_TEST(s.units == "meter");
      has_ellipsoid = has_ellipsoid || std::holds_alternative<Ellipsoid<double>>(q.shape);
      has_tolerances = has_tolerances || !q.tolerances.empty();
    }
  }
  BOOST_TEST(has_ellipsoid);
  BOOST_TEST(has_tolerances);
  // The file is in the writer's canonical form (field order, %a hexfloats).
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ostringstream out;
  formats::write_queries(out, qs);
  BOOST_TEST(out.str() == text);
}

BOOST_AUTO_TEST_CASE(builtin_queries_start_clear_of_their_scene) {
  // Exact, in eSpace (coordinates divided by the radii, exact in rationals): the start is
  // at distance >= 1 from every triangle. Exactly 1 (touching) only where the query is
  // meant to start in contact, sliding along the floor.
  const std::string file = builtin + "/queries.jsonl";
  std::set<std::string> touching;
  for (const Query& q : formats::read_queries(file)) {
    const formats::Scene s = formats::read_scene(formats::resolve_scene_path(file, q));
    const auto to_espace = [&](const Vec3<double>& v) {
      const Vec3<Rational> r = Vec3<Rational>::from_double(espace_radii(q.shape).radii.x, espace_radii(q.shape).radii.y, espace_radii(q.shape).radii.z);
      return Vec3<Rational>::from_double(v.x, v.y, v.z).unscaled(r);
    };
    const Vec3<Rational> p = to_espace(q.start);
    for (std::size_t t = 0; t < s.mesh.triangle_count(); ++t) {
      const Triangle<double> tri = s.mesh.triangle(t);
      const Triangle<Rational> e{to_espace(tri.p0), to_espace(tri.p1), to_espace(tri.p2)};
      const Rational d2 = length_squared(p - closest_point_on_triangle(p, e).point);
      BOOST_TEST(d2 >= Rational(1), "query " << q.id << " starts inside triangle " << t);
      if (d2 == Rational(1)) touching.insert(q.id);
    }
  }
  BOOST_TEST((touching == std::set<std::string>{"floor-graze", "obtuse-climb"}));
}

BOOST_AUTO_TEST_CASE(builtin_scenes_face_their_free_space) {
  // Each scene with a point of its free space: every triangle's front face
  // (p1-p0)x(p2-p0) must point at it (exact in double here: small integer coordinates).
  const std::pair<const char*, Vec3<double>> scenes[] = {{"floor", {0, 0, 1}},
                                                         {"obtuse_corner", {-1, 0, 1}},
                                                         {"v_trough", {0, 0, 1}},
                                                         {"room_corner", {1, 1, 1}}};
  for (const auto& [name, free_point] : scenes) {
    BOOST_TEST_CONTEXT("scene " << name) {
      const formats::Scene s = formats::read_scene(builtin + "/" + name + ".scene");
      BOOST_TEST(s.licence == "CC0-1.0");
      BOOST_TEST(s.source == "slidecheck built-in");
      BOOST_TEST(s.degenerate_triangles.empty());
      for (std::size_t t = 0; t < s.mesh.triangle_count(); ++t) {
        const Triangle<double> tri = s.mesh.triangle(t);
        BOOST_TEST(dot(tri.normal_unnormalized(), free_point - tri.p0) > 0.0, "triangle " << t);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(any_well_formed_algorithm_name_is_read) {
  // Which algorithms exist is the verifier's registry's business (a program may register its
  // own); the reader checks only the form of the name.
  const Query q = formats::parse_query_line(edit("fauerby", "my_slide-2.1"), "q.jsonl", 1);
  BOOST_TEST(q.algorithm.name() == "my_slide-2.1");
}

BOOST_AUTO_TEST_SUITE_END()
