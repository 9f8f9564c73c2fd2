// The .pk3 (zip) reader on archives written by the test itself (a minimal zip writer with
// stored entries, independent of libzip), intact and corrupted.
#include "synthetic_bsp.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/corpora/pk3.hpp>

#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>

using namespace slidecheck;
using namespace slidecheck::corpora;

namespace {

/// CRC-32 (ISO 3309, reflected polynomial 0xEDB88320), as zip stores it.
std::uint32_t crc32(const std::vector<std::uint8_t>& data) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::uint8_t byte : data) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

struct ZipEntry {
  std::string name;
  std::vector<std::uint8_t> data;
};

struct Bytes {
  std::vector<std::uint8_t> b;
  void u16(std::uint32_t v) { b.push_back(std::uint8_t(v)), b.push_back(std::uint8_t(v >> 8)); }
  void u32(std::uint32_t v) { u16(v & 0xFFFF), u16(v >> 16); }
  void str(const std::string& s) { b.insert(b.end(), s.begin(), s.end()); }
};

/// A zip with stored (uncompressed) entries: local headers and data, central directory, end record.
/// `data_offsets` receives where each entry's data starts; `size_fields` where its size fields are
/// (local compressed, local uncompressed, central compressed, central uncompressed).
std::vector<std::uint8_t> make_zip(const std::vector<ZipEntry>& entries, std::vector<std::size_t>* data_offsets = nullptr,
                                   std::vector<std::array<std::size_t, 4>>* size_fields = nullptr) {
  Bytes z, central;
  std::vector<std::uint32_t> local_offsets;
  std::vector<std::size_t> local_size_at;
  for (const ZipEntry& e : entries) {
    local_offsets.push_back(std::uint32_t(z.b.size()));
    z.u32(0x04034b50), z.u16(20), z.u16(0), z.u16(0), z.u16(0), z.u16(0x21);
    z.u32(crc32(e.data));
    local_size_at.push_back(z.b.size());
    z.u32(std::uint32_t(e.data.size())), z.u32(std::uint32_t(e.data.size()));
    z.u16(std::uint32_t(e.name.size())), z.u16(0), z.str(e.name);
    if (data_offsets) data_offsets->push_back(z.b.size());
    z.b.insert(z.b.end(), e.data.begin(), e.data.end());
  }
  const std::size_t central_offset = z.b.size();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ZipEntry& e = entries[i];
    central.u32(0x02014b50), central.u16(20), central.u16(20), central.u16(0), central.u16(0), central.u16(0),
        central.u16(0x21);
    central.u32(crc32(e.data));
    if (size_fields)
      size_fields->push_back({local_size_at[i], local_size_at[i] + 4, central_offset + central.b.size(),
                              central_offset + central.b.size() + 4});
    central.u32(std::uint32_t(e.data.size())), central.u32(std::uint32_t(e.data.size()));
    central.u16(std::uint32_t(e.name.size())), central.u16(0), central.u16(0), central.u16(0), central.u16(0);
    central.u32(0), central.u32(local_offsets[i]);
    central.str(e.name);
  }
  z.b.insert(z.b.end(), central.b.begin(), central.b.end());
  z.u32(0x06054b50), z.u16(0), z.u16(0), z.u16(std::uint32_t(entries.size())), z.u16(std::uint32_t(entries.size()));
  z.u32(std::uint32_t(central.b.size())), z.u32(std::uint32_t(central_offset)), z.u16(0);
  return z.b;
}

void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b.at(at + std::size_t(k)) = std::uint8_t(v >> (8 * k));
}

/// A file in the test's temporary directory, removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  TempFile(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    path = std::filesystem::temp_directory_path() / ("slidecheck-test-pk3-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  ~TempFile() { std::filesystem::remove(path); }
};

std::vector<std::uint8_t> text(const std::string& s) { return {s.begin(), s.end()}; }

const std::vector<ZipEntry> kEntries = {
    {"textures/readme.txt", text("not a map\n")},
    {"maps/zeta.bsp", text("zeta contents")},
    {"maps/notamap.txt", text("x")},
    {"maps/Alpha.BSP", text("alpha")},
};

/// Expects `f` to throw a FormatError whose message contains each of `parts`.
template <class F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    BOOST_ERROR("no error; expected one mentioning '" << *parts.begin() << "'");
  } catch (const FormatError& e) {
    const std::string what = e.what();
    BOOST_TEST_MESSAGE("error as expected: " << what);
    for (const std::string& p : parts) BOOST_TEST(what.find(p) != std::string::npos, "'" << p << "' in: " << what);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(crc32_of_the_standard_check_string) {
  BOOST_TEST(crc32(text("123456789")) == 0xCBF43926u);  // the CRC-32 catalogue's check value
}

BOOST_AUTO_TEST_CASE(lists_and_reads_entries) {
  const TempFile f("good.pk3", make_zip(kEntries));
  const Pk3Archive a(f.path.string());
  const std::vector<Pk3Entry> entries = a.entries();
  BOOST_TEST_REQUIRE(entries.size() == 4u);
  BOOST_TEST(entries[1].name == "maps/zeta.bsp");
  BOOST_TEST(entries[1].size == 13u);
  BOOST_TEST(entries[1].crc == crc32(text("zeta contents")));
  const std::vector<std::string> maps = a.map_entries();
  BOOST_TEST_REQUIRE(maps.size() == 2u);
  BOOST_TEST(maps[0] == "maps/Alpha.BSP");  // extension matched case-insensitively, sorted
  BOOST_TEST(maps[1] == "maps/zeta.bsp");
  BOOST_TEST((a.read("maps/zeta.bsp") == text("zeta contents")));
  BOOST_TEST((a.read("textures/readme.txt") == text("not a map\n")));
}

BOOST_AUTO_TEST_CASE(a_synthetic_map_in_an_archive_parses) {
  const std::vector<std::uint8_t> map = test::make_synthetic_bsp().bytes();
  const TempFile f("map.pk3", make_zip({{"maps/tiny.bsp", map}}));
  const Pk3Archive a(f.path.string());
  const bsp::BspFile m = bsp::parse_bsp(a.read("maps/tiny.bsp"), "tiny");
  BOOST_TEST(m.brushes.size() == 6u);
}

BOOST_AUTO_TEST_CASE(a_missing_entry_is_named) {
  const TempFile f("missing.pk3", make_zip(kEntries));
  const Pk3Archive a(f.path.string());
  expect_error([&] { a.read("maps/nope.bsp"); }, {f.path.string(), "entry 'maps/nope.bsp'", "no such entry"});
}

BOOST_AUTO_TEST_CASE(not_a_zip_and_no_file) {
  const TempFile f("text.pk3", text("this is not a zip archive, just some text that is long enough\n"));
  expect_error([&] { Pk3Archive a(f.path.string()); }, {f.path.string(), "cannot open as a zip (.pk3) archive"});
  expect_error([&] { Pk3Archive a(f.path.string() + ".absent"); }, {".absent", "cannot open"});
  const TempFile empty("empty.pk3", {});
  expect_error([&] { Pk3Archive a(empty.path.string()); }, {"empty.pk3", "cannot open"});
}

BOOST_AUTO_TEST_CASE(a_truncated_archive_is_refused) {
  std::vector<std::uint8_t> zip = make_zip(kEntries);
  for (std::size_t cut : {std::size_t(10), std::size_t(30), zip.size() / 2}) {
    const std::vector<std::uint8_t> part(zip.begin(), zip.end() - std::ptrdiff_t(cut));
    const TempFile f("cut.pk3", part);
    expect_error([&] { Pk3Archive a(f.path.string()); }, {"cut.pk3", "cannot open as a zip"});
  }
}

BOOST_AUTO_TEST_CASE(corrupted_entry_data_fails_its_crc) {
  std::vector<std::size_t> data_at;
  std::vector<std::uint8_t> zip = make_zip(kEntries, &data_at);
  zip[data_at[1] + 3] ^= 0x20;  // "zeta contents" -> "zetA contents"
  const TempFile f("crc.pk3", zip);
  const Pk3Archive a(f.path.string());
  expect_error([&] { a.read("maps/zeta.bsp"); }, {"entry 'maps/zeta.bsp'", "CRC"});
  BOOST_TEST((a.read("maps/Alpha.BSP") == text("alpha")));  // the others still read
}

BOOST_AUTO_TEST_CASE(a_truncated_entry_is_refused) {
  // An entry claims more bytes than the archive holds before the next record: libzip's
  // consistency check (ZIP_CHECKCONS) refuses the archive when it is opened.
  for (std::size_t entry : {std::size_t(1), std::size_t(3)}) {
    std::vector<std::array<std::size_t, 4>> sizes;
    std::vector<std::uint8_t> zip = make_zip(kEntries, nullptr, &sizes);
    for (std::size_t at : sizes[entry]) put_u32(zip, at, std::uint32_t(kEntries[entry].data.size() + 1000));
    const TempFile f("short.pk3", zip);
    expect_error([&] { Pk3Archive(f.path.string()).read(kEntries[entry].name); }, {"short.pk3", "cannot open as a zip"});
  }
}

BOOST_AUTO_TEST_CASE(a_false_declared_size_costs_no_memory_beyond_the_data) {
  // Found by review for the fuzzing work: 133 bytes whose entry claims 10^9 bytes,
  // under the 1 GiB limit. The buffer must grow with the data read, not with the claim, so the
  // read fails "truncated" having used kilobytes (it used to allocate and zero 1 GB first).
  const std::string path = SLIDECHECK_SOURCE_DIR "/fuzz/regressions/pk3/declared_1gb.pk3";
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  expect_error([&] { Pk3Archive(path).read("maps/huge.bsp"); },
               {"declared_1gb.pk3", "entry 'maps/huge.bsp'", "truncated: 64 of 1000000000 bytes"});
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  BOOST_TEST(after.ru_maxrss - before.ru_maxrss < 64 * 1024);  // peak resident size, in KiB
}

BOOST_AUTO_TEST_CASE(a_huge_declared_size_is_refused_before_allocating) {
  std::vector<std::array<std::size_t, 4>> sizes;
  std::vector<std::uint8_t> zip = make_zip(kEntries, nullptr, &sizes);
  put_u32(zip, sizes[1][1], 0xFFFFFF00u);  // the uncompressed sizes only
  put_u32(zip, sizes[1][3], 0xFFFFFF00u);
  const TempFile f("huge.pk3", zip);
  expect_error([&] { Pk3Archive(f.path.string()).read("maps/zeta.bsp"); }, {"huge.pk3", "entry 'maps/zeta.bsp'", "exceeds the limit"});
}
