#pragma once
// Progress on stderr: one line rewritten in place (\r) on a terminal; whole lines otherwise
// (a log file or a pipe), at most one a second, so that a log reads line by line.
#include <chrono>
#include <string>

namespace slidecheck::cli {

/// Whether stderr is a terminal (isatty).
bool stderr_is_terminal();

class ProgressLine {
 public:
  /// Prints nothing when `enabled` is false (--quiet).
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// The current state, e.g. "search: 64 of 10000 candidates". When the first word changes
  /// (search, then shrink) the last state of the previous phase is kept on its own line.
  void update(const std::string& text);
  /// Ends the progress: the last state stays visible, and what follows starts on a new line.
  void done();

 private:
  void print_line(const std::string& text);
  bool enabled_, terminal_;
  std::string last_, shown_;  ///< the latest state, and the one on screen (or last printed)
  std::size_t width_ = 0;     ///< terminal: the length of the line on screen
  std::chrono::steady_clock::time_point printed_at_{};
};

}  // namespace slidecheck::cli
