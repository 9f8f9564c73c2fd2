// Temporary folders removed by their owner or, when a signal ends the run, by the handler
// (temporary_folder.hpp).
#include "process/temporary_folder.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace slidecheck::process {

namespace {

// The handler's table: a slot is free (0), being written or cleared (1), or holds a path (2).
// Only lock-free atomics and buffers written before their slot is published are read there.
constexpr int kSlots = 16;
constexpr std::size_t kPathBytes = 4096;
std::array<std::atomic<int>, kSlots> slot_state{};
char slot_path[kSlots][kPathBytes];
pid_t slot_owner[kSlots];

int claim(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!slot_state[i].compare_exchange_strong(expected, 1)) continue;
    std::memcpy(slot_path[i], path.c_str(), path.size() + 1);
    slot_owner[i] = ::getpid();
    slot_state[i].store(2);
    return i;
  }
  return -1;  // more live folders than slots: the rest are removed by their owners only
}

void release(int i) {
  if (i < 0) return;
  int expected = 2;
  if (slot_state[i].compare_exchange_strong(expected, 1)) slot_state[i].store(0);
}

// Unlinks the folder's entries (getdents64 on a fixed buffer), then the folder. A few passes:
// unlinking while reading may leave an entry unseen until the folder is read again.
void remove_folder(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buffer[8192];
    for (int pass = 0; pass < 4; ++pass) {
      bool removed = false;
      ::lseek(fd, 0, SEEK_SET);
      for (;;) {
        const ssize_t n = ::getdents64(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        for (ssize_t at = 0; at < n;) {
          const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
          at += entry->d_reclen;
          const char* name = entry->d_name;
          if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
          if (::unlinkat(fd, name, 0) == 0) removed = true;
        }
      }
      if (!removed) break;
    }
    ::close(fd);
  }
  ::rmdir(path);
}

}  // namespace

TemporaryFolder::TemporaryFolder(const std::string& prefix) : owner_(::getpid()) {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) throw std::runtime_error("cannot find the temporary directory: " + ec.message());
  std::string pattern = (dir / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("cannot create a temporary folder in " + dir.string() + ": " +
                             std::strerror(errno));
  path_ = pattern;
  slot_ = claim(path_);
}

TemporaryFolder::~TemporaryFolder() {
  if (::getpid() != owner_) return;  // a forked child's exit
  release(slot_);
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void remove_temporary_folders_on_signal() {
  const pid_t self = ::getpid();  // a forked child (CORE's) inherits the handler, not the folders
  for (int i = 0; i < kSlots; ++i)
    if (slot_state[i].load() == 2 && slot_owner[i] == self) remove_folder(slot_path[i]);
}

}  // namespace slidecheck::process
