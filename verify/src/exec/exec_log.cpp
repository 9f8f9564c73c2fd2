// The exec processes' stderr, capped (exec_log.hpp).
#include <slidecheck/verify/exec/exec_log.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace slidecheck::verify {

ExecLog::ExecLog(std::string path, std::size_t cap) : path_(std::move(path)), cap_(cap) {}

ExecLog::~ExecLog() {
  if (fd_ >= 0) close(fd_);
}

void ExecLog::write(std::string_view bytes) {
  std::lock_guard lock(mutex_);
  if (!started_) {
    const std::size_t room = cap_ > held_.size() ? cap_ - held_.size() : 0;
    held_.append(bytes.substr(0, room));
    return;
  }
  put(bytes);
}

void ExecLog::start() {
  std::lock_guard lock(mutex_);
  if (started_) return;
  started_ = true;
  std::error_code ignored;  // a folder that cannot be made shows as the open's error
  if (const auto folder = std::filesystem::path(path_).parent_path(); !folder.empty())
    std::filesystem::create_directories(folder, ignored);
  fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) std::fprintf(stderr, "slidecheck: cannot write %s: %s\n", path_.c_str(), std::strerror(errno));
  put(held_);
  held_.clear();
  held_.shrink_to_fit();
}

void ExecLog::put(std::string_view bytes) {
  if (fd_ < 0 || dropped_ || bytes.empty()) return;
  const std::size_t room = cap_ - written_;
  const std::string_view kept = bytes.substr(0, room);
  for (std::size_t done = 0; done < kept.size();) {
    const ssize_t n = ::write(fd_, kept.data() + done, kept.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  written_ += kept.size();
  if (kept.size() < bytes.size()) {
    dropped_ = true;
    const std::string note = "\nslidecheck: the rest of the processes' stderr is dropped (this log keeps at most " +
                             std::to_string(cap_ >> 20) + " MiB per run)\n";
    (void)!::write(fd_, note.data(), note.size());
  }
}

}  // namespace slidecheck::verify
