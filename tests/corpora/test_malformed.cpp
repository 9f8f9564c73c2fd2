// Malformed input along the whole import chain, filling the gaps left by test_pk3.cpp,
// test_bsp.cpp and tests/formats/test_mesh_import.cpp: a damaged map inside a real zip (written
// here with libzip), an archive entry that is not a map, and OFF counts and indices those tests
// do not cover. Each must give an error naming the file, the place and the problem.
#include "synthetic_bsp.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/corpora/pk3.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/mesh_import.hpp>

#include <boost/test/unit_test.hpp>

#include <zip.h>

#include <filesystem>
#include <unistd.h>

using namespace slidecheck;
using namespace slidecheck::corpora;

namespace {

/// A zip written by libzip (deflated entries) in the temporary directory, removed at the end.
struct TempZip {
  std::filesystem::path path;
  explicit TempZip(const std::string& name, const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& entries) {
    path = std::filesystem::temp_directory_path() / ("slidecheck-test-malformed-" + std::to_string(::getpid()) + "-" + name);
    int error = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    BOOST_TEST_REQUIRE(z != nullptr);
    for (const auto& [entry, bytes] : entries) {
      zip_source_t* src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
      BOOST_TEST_REQUIRE(src != nullptr);
      BOOST_TEST_REQUIRE(zip_file_add(z, entry.c_str(), src, ZIP_FL_OVERWRITE) >= 0);
    }
    BOOST_TEST_REQUIRE(zip_close(z) == 0);  // writes the buffers, which must still be alive
  }
  ~TempZip() { std::filesystem::remove(path); }
};

template <class F>
void expect_format_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    BOOST_ERROR("no error; expected one mentioning '" << *parts.begin() << "'");
  } catch (const FormatError& e) {
    const std::string what = e.what();
    BOOST_TEST_MESSAGE("error as expected: " << what);
    for (const std::string& p : parts) BOOST_TEST(what.find(p) != std::string::npos, "'" << p << "' in: " << what);
  }
}

void expect_off_error(const std::string& text, std::size_t line, const std::string& part) {
  try {
    formats::parse_off(text, "m.off");
    BOOST_ERROR("accepted: " << text);
  } catch (const formats::InputError& e) {
    BOOST_TEST_MESSAGE("error as expected: " << e.what());
    BOOST_TEST(e.file() == "m.off");
    BOOST_TEST(e.line() == line, e.what());
    BOOST_TEST(e.problem().find(part) != std::string::npos, "'" << e.problem() << "' lacks '" << part << "'");
  }
}

/// Reads a map from an archive as the CLI does: the archive and entry name the error.
bsp::BspFile read_map(const Pk3Archive& a, const std::string& entry) {
  return bsp::parse_bsp(a.read(entry), a.path() + ":" + entry);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(malformed)

BOOST_AUTO_TEST_CASE(a_map_in_a_deflated_zip_reads_and_its_damage_is_located) {
  const test::SyntheticBsp s = test::make_synthetic_bsp();
  const std::vector<std::uint8_t> good = s.bytes();
  std::vector<std::uint8_t> truncated(good.begin(), good.begin() + std::ptrdiff_t(good.size() / 2));
  std::vector<std::uint8_t> bad_index = good;
  test::put_i32(bad_index, s.offset_of(bsp::Lump::brushsides, 2, 0), 12345);
  const TempZip z("maps.pk3", {{"maps/good.bsp", good},
                               {"maps/half.bsp", truncated},
                               {"maps/index.bsp", bad_index},
                               {"maps/readme.bsp", {'h', 'e', 'l', 'l', 'o'}}});
  const Pk3Archive a(z.path.string());
  BOOST_TEST(a.map_entries().size() == 4u);
  BOOST_TEST(read_map(a, "maps/good.bsp").brushes.size() == 6u);
  expect_format_error([&] { read_map(a, "maps/half.bsp"); }, {z.path.string() + ":maps/half.bsp", "extends past the end of the file"});
  expect_format_error([&] { read_map(a, "maps/index.bsp"); },
                      {"maps/index.bsp", "lump 'brushsides' record 2", "plane 12345 is out of range"});
  expect_format_error([&] { read_map(a, "maps/readme.bsp"); }, {"maps/readme.bsp", "header", "5 bytes"});
}

BOOST_AUTO_TEST_CASE(a_zip_with_a_damaged_central_directory_is_refused) {
  const TempZip z("damaged.pk3", {{"maps/good.bsp", test::make_synthetic_bsp().bytes()}});
  // Corrupt the end-of-central-directory record's signature: no longer a zip.
  const auto size = std::filesystem::file_size(z.path);
  {
    std::FILE* f = std::fopen(z.path.c_str(), "r+b");
    BOOST_TEST_REQUIRE(f != nullptr);
    std::fseek(f, long(size) - 22, SEEK_SET);
    std::fputc('X', f);
    std::fclose(f);
  }
  expect_format_error([&] { Pk3Archive a(z.path.string()); }, {"damaged.pk3", "cannot open as a zip"});
}

BOOST_AUTO_TEST_CASE(off_counts_and_indices) {
  const std::string verts = "0 0 0\n1 0 0\n0 1 0\n";
  expect_off_error("OFF\n3 1 0\n" + verts + "3 0 1 -1\n", 6, "vertex index: expected a non-negative integer, got '-1'");
  expect_off_error("OFF\n-3 1 0\n" + verts + "3 0 1 2\n", 2, "vertex count: expected a non-negative integer, got '-3'");
  expect_off_error("OFF\nthree 1 0\n" + verts + "3 0 1 2\n", 2, "got 'three'");
  expect_off_error("OFF\n3 1 0\n" + verts + "3 0 1 2.5\n", 6, "got '2.5'");
  expect_off_error("OFF\n3 1 0\n" + verts + "3 0 1 3\n", 6, "vertex index 3 out of range");
  expect_off_error("OFF\n3 1 0\n" + verts + "-3 0 1 2\n", 6, "face vertex count: expected a non-negative integer");
  expect_off_error("OFF\n3 2 0\n" + verts + "3 0 1 2\n", 6, "file ends after 1 of 2 declared face lines");
  // Huge declared counts: beyond 32-bit indices refused at once; below, by the missing content
  // (not by an attempt to allocate them).
  expect_off_error("OFF\n99999999999 1 0\n" + verts + "3 0 1 2\n", 2, "vertex count: 99999999999 is too large");
  expect_off_error("OFF\n4294967295 1 0\n" + verts, 5, "file ends after 3 of 4294967295 declared vertex lines");
}

BOOST_AUTO_TEST_SUITE_END()
