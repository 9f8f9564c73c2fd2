// .pk3 archives through libzip: the archive is opened read-only and never written back.
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/corpora/pk3.hpp>

#include <zip.h>

#include <algorithm>
#include <cctype>

namespace slidecheck::corpora {

struct Pk3Archive::Impl {
  zip_t* archive = nullptr;
  ~Impl() {
    if (archive) zip_discard(archive);  // read-only: discard, never write back
  }
};

namespace {

std::string entry_where(std::string_view entry) { return "entry '" + std::string(entry) + "'"; }

bool ends_with_bsp(const std::string& name) {
  if (name.size() < 4) return false;
  std::string ext = name.substr(name.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".bsp";
}

}  // namespace

Pk3Archive::Pk3Archive(const std::string& path) : path_(path), impl_(std::make_unique<Impl>()) {
  int code = 0;
  // ZIP_CHECKCONS: libzip cross-checks the central directory against the local headers.
  impl_->archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!impl_->archive) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    std::string message = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw FormatError(path, "", "cannot open as a zip (.pk3) archive: " + message);
  }
}

Pk3Archive::~Pk3Archive() = default;
Pk3Archive::Pk3Archive(Pk3Archive&&) noexcept = default;
Pk3Archive& Pk3Archive::operator=(Pk3Archive&&) noexcept = default;

std::vector<Pk3Entry> Pk3Archive::entries() const {
  std::vector<Pk3Entry> out;
  const zip_int64_t n = zip_get_num_entries(impl_->archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(impl_->archive, zip_uint64_t(i), 0, &st) != 0)
      throw FormatError(path_, "entry #" + std::to_string(i),
                        std::string("cannot read its directory record: ") + zip_strerror(impl_->archive));
    Pk3Entry e;
    e.name = (st.valid & ZIP_STAT_NAME) ? st.name : "";
    e.size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
    e.compressed_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
    e.crc = (st.valid & ZIP_STAT_CRC) ? st.crc : 0;
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<std::string> Pk3Archive::map_entries() const {
  std::vector<std::string> out;
  for (const Pk3Entry& e : entries())
    if (e.name.rfind("maps/", 0) == 0 && ends_with_bsp(e.name)) out.push_back(e.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> Pk3Archive::read(std::string_view entry) const {
  const std::string name(entry);
  const zip_int64_t index = zip_name_locate(impl_->archive, name.c_str(), 0);
  if (index < 0) throw FormatError(path_, entry_where(entry), "no such entry in the archive");
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(impl_->archive, zip_uint64_t(index), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw FormatError(path_, entry_where(entry), "its size is unknown");
  if (st.size > kMaxPk3EntryBytes)
    throw FormatError(path_, entry_where(entry),
                      "declared size " + std::to_string(st.size) + " bytes exceeds the limit of " +
                          std::to_string(kMaxPk3EntryBytes));

  zip_file_t* file = zip_fopen_index(impl_->archive, zip_uint64_t(index), 0);
  if (!file)
    throw FormatError(path_, entry_where(entry), std::string("cannot open: ") + zip_strerror(impl_->archive));
  // The buffer grows with the data actually read, a chunk at a time: a size field is only a
  // claim, and a 133-byte archive declaring 1 GB would otherwise cost 1 GB before the read
  // finds the data truncated (fuzz/regressions/pk3/declared_1gb.pk3).
  constexpr std::uint64_t kChunk = std::uint64_t(1) << 20;
  std::vector<std::uint8_t> data;
  data.reserve(std::size_t(std::min(st.size, kChunk)));
  std::uint64_t done = 0;
  std::string problem;
  while (done < st.size) {
    const std::uint64_t want = std::min(st.size - done, kChunk);
    data.resize(std::size_t(done + want));
    const zip_int64_t got = zip_fread(file, data.data() + done, want);
    if (got < 0) { problem = std::string("read error: ") + zip_file_strerror(file); break; }
    if (got == 0) {
      problem = "truncated: " + std::to_string(done) + " of " + std::to_string(st.size) + " bytes";
      break;
    }
    done += std::uint64_t(got);
  }
  data.resize(std::size_t(done));
  if (problem.empty()) {
    // One more read must report the end: libzip verifies the CRC when the data is exhausted.
    std::uint8_t extra = 0;
    const zip_int64_t got = zip_fread(file, &extra, 1);
    if (got < 0) problem = std::string("read error at the end of the data: ") + zip_file_strerror(file);
    else if (got > 0) problem = "longer than its declared size of " + std::to_string(st.size) + " bytes";
  }
  zip_fclose(file);
  if (!problem.empty()) throw FormatError(path_, entry_where(entry), problem);
  return data;
}

}  // namespace slidecheck::corpora
