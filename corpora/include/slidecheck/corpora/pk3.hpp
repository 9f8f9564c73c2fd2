#pragma once
/// Reading Quake III .pk3 archives (plain zip files) with libzip.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::corpora {

/// One file stored in a .pk3 archive, as its central directory describes it.
struct Pk3Entry {
  std::string name;                 ///< path inside the archive, e.g. "maps/oa_dm1.bsp"
  std::uint64_t size = 0;           ///< uncompressed size in bytes
  std::uint64_t compressed_size = 0;
  std::uint32_t crc = 0;            ///< CRC-32 of the uncompressed data
};

/// Entries larger than this are refused: a corrupt size field must not trigger a huge allocation.
inline constexpr std::uint64_t kMaxPk3EntryBytes = std::uint64_t(1) << 30;

/// A read-only .pk3 (zip) archive. Every failure throws FormatError naming the archive and,
/// where it applies, the entry: a file that is not a zip, a missing entry, an entry whose data
/// is truncated or fails its CRC. One libzip handle per object: not safe to share between threads.
class Pk3Archive {
 public:
  /// Opens the archive at `path` (libzip checks the central directory's consistency).
  explicit Pk3Archive(const std::string& path);
  ~Pk3Archive();
  Pk3Archive(Pk3Archive&&) noexcept;
  Pk3Archive& operator=(Pk3Archive&&) noexcept;
  Pk3Archive(const Pk3Archive&) = delete;
  Pk3Archive& operator=(const Pk3Archive&) = delete;

  const std::string& path() const { return path_; }
  /// Every entry, in central-directory order (directories included, their names end in '/').
  std::vector<Pk3Entry> entries() const;
  /// The names of the maps: entries "maps/NAME.bsp" (extension matched case-insensitively),
  /// sorted by name.
  std::vector<std::string> map_entries() const;
  /// The whole uncompressed content of one entry; the CRC is checked by reading to the end.
  std::vector<std::uint8_t> read(std::string_view entry) const;

 private:
  struct Impl;
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace slidecheck::corpora
